"""Sharp Bits / "Control flow": gradient scaling on the loss of `jax.value_and_grad`, with `jnp.where`.

The choice is made on device (`jnp.where`), and the Python `if` only tests a static flag.
"""
from functools import partial

import jax
import jax.numpy as jnp


def loss_fn(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


@partial(jax.jit, static_argnames="clip")
def train_step(w, x, y, clip=True):
    loss, grads = jax.value_and_grad(loss_fn)(w, x, y)
    if clip:
        grads = jnp.where(loss > 10.0, grads * 0.1, grads)
    return w - 0.01 * grads


if __name__ == "__main__":
    print(train_step(jnp.ones(2), jnp.ones((4, 2)), jnp.zeros(4)))
