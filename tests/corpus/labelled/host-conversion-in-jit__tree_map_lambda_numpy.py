"""Gradient clipping leaf by leaf with `jax.tree.map(lambda g: np.clip(g, ...), grads)` inside a jitted update.

`jax.tree.map` calls the lambda with every leaf of `grads`, and inside `jax.jit` every leaf is a tracer: NumPy's
`clip` asks it for a NumPy array and raises TracerArrayConversionError. `jnp.clip` (or `optax.clip`) stays in the
trace. The twin `clean__tree_map_lambda_static_config` maps NumPy over a tree of Python numbers.
"""
import jax
import jax.numpy as jnp
import numpy as np


def loss(params, x):
    return jnp.sum((x @ params["w"]) ** 2) + jnp.sum(params["b"] ** 2)


@jax.jit
def update(params, x, lr=0.1):
    grads = jax.grad(loss)(params, x)
    grads = jax.tree.map(lambda g: np.clip(g, -1.0, 1.0), grads)  # expect: host-conversion-in-jit
    return jax.tree.map(lambda p, g: p - lr * g, params, grads)


if __name__ == "__main__":
    print(update({"w": jnp.ones(2), "b": jnp.ones(2)}, jnp.ones((3, 2))))
