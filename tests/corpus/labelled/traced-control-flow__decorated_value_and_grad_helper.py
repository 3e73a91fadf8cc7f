"""Sharp Bits / "Control flow": a loss helper decorated with `partial(jax.value_and_grad, has_aux=True)` (as
`@eqx.filter_value_and_grad` decorates one), called in a jitted step whose Python `if` tests the loss.

Calling the decorated helper gives `((loss, aux), grads)`; inside the jitted step `loss` is a tracer, so
`if loss > ...:` raises TracerBoolConversionError.
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
    if loss > 10.0:  # expect: traced-control-flow
        lr = lr / 10
    return w - lr * g


if __name__ == "__main__":
    print(step(jnp.ones(2), jnp.ones((4, 2)), jnp.zeros(4)))
