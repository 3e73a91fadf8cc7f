"""Sharp Bits / "Control flow": an accumulator of leaf sizes (static) beside one of squared gradients.

`count` sums `g.size`, a Python int, so `if count > 4:` is a trace-time decision; the traced
accumulator `total` is only used on device (`jnp.where`).
"""
import jax
import jax.numpy as jnp


def loss_fn(params, x):
    return jnp.sum((x @ params["w"] + params["b"]) ** 2)


@jax.jit
def clipped_grads(params, x):
    grads = jax.grad(loss_fn)(params, x)
    total, count = 0.0, 0
    for g in jax.tree_util.tree_leaves(grads):
        total += jnp.sum(g * g)
        count += g.size
    if count > 4:
        scale = jnp.where(total > 1.0, 1.0 / jnp.sqrt(total), 1.0)
        grads = jax.tree_util.tree_map(lambda g: g * scale, grads)
    return grads


if __name__ == "__main__":
    print(clipped_grads({"w": jnp.ones((2, 2)), "b": jnp.zeros(2)}, jnp.ones((3, 2))))
