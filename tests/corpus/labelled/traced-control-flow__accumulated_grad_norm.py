"""Sharp Bits / "Control flow": an accumulator summed from `jax.grad`'s leaves, tested with `if` under jit.

`total = 0.0; total += jnp.sum(g * g)` over the gradient's leaves makes `total` traced; the
clipping test `if total > 1.0:` raises TracerBoolConversionError.
"""
import jax
import jax.numpy as jnp


def loss_fn(params, x):
    return jnp.sum((x @ params["w"] + params["b"]) ** 2)


@jax.jit
def clipped_grads(params, x):
    grads = jax.grad(loss_fn)(params, x)
    total = 0.0
    for g in jax.tree_util.tree_leaves(grads):
        total += jnp.sum(g * g)
    if total > 1.0:  # expect: traced-control-flow
        grads = jax.tree_util.tree_map(lambda g: g / jnp.sqrt(total), grads)
    return grads


if __name__ == "__main__":
    print(clipped_grads({"w": jnp.ones((2, 2)), "b": jnp.zeros(2)}, jnp.ones((3, 2))))
