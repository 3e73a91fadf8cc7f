"""A jitted loss that derives its per-layer scales with `jax.tree.map(lambda v: math.sqrt(v), ...)` over a
config tree of Python numbers held by the module, and clips gradients with `jnp.clip` leaf by leaf.

The leaves of `LAYER_WIDTHS` are Python ints, so `math.sqrt` is fine at trace time; the traced gradients are only
touched by `jax.numpy` (the twin of `host-conversion-in-jit__tree_map_lambda_numpy`).
"""
import math

import jax
import jax.numpy as jnp

LAYER_WIDTHS = {"w": 4, "b": 4}


def loss(params, x):
    return jnp.sum((x @ params["w"]) ** 2) + jnp.sum(params["b"] ** 2)


@jax.jit
def update(params, x):
    scales = jax.tree.map(lambda v: 1.0 / math.sqrt(v), LAYER_WIDTHS)
    grads = jax.grad(loss)(params, x)
    grads = jax.tree.map(lambda g: jnp.clip(g, -1.0, 1.0), grads)
    return jax.tree.map(lambda p, g, s: p - s * g, params, grads, scales)


if __name__ == "__main__":
    print(update({"w": jnp.ones(2), "b": jnp.ones(2)}, jnp.ones((3, 2))))
