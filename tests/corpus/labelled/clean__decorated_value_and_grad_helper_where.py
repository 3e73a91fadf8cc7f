"""Sharp Bits / "Control flow": a loss helper decorated with `partial(jax.value_and_grad, has_aux=True)`,
called in a jitted step that picks the learning rate with `jnp.where` on the loss, and called eagerly with a
Python `if` on the (concrete) loss. Nothing here is a sharp bit.
"""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.value_and_grad, has_aux=True)
def loss_and_grad(w, x, y):
    err = x @ w - y
    return jnp.mean(err ** 2), jnp.max(jnp.abs(err))


@jax.jit
def step(w, x, y, lr=0.1):
    (loss, worst), g = loss_and_grad(w, x, y)
    lr = jnp.where(loss > 10.0, lr / 10, lr)
    return w - lr * g


if __name__ == "__main__":
    w = step(jnp.ones(2), jnp.ones((4, 2)), jnp.zeros(4))
    (loss, worst), g = loss_and_grad(w, jnp.ones((4, 2)), jnp.zeros(4))
    if loss > 10.0:
        print("large loss", loss)
    print(w, worst)
