"""Sharp Bits / "Printing inside jit": the loss of `jax.value_and_grad(..., has_aux=True)` unpacked as
`(loss, aux), grads = ...`, shown with `jax.debug.print` inside the step and with `print` after it.

`jax.debug.print` runs on every call with the value; the `print` outside the jitted step shows a concrete
array. Nothing here is a sharp bit.
"""
import jax
import jax.numpy as jnp


def loss_fn(w, x, y):
    pred = x @ w
    return jnp.mean((pred - y) ** 2), pred


@jax.jit
def train_step(w, x, y):
    (loss, pred), grads = jax.value_and_grad(loss_fn, has_aux=True)(w, x, y)
    jax.debug.print("loss {}", loss)
    return w - 0.1 * grads, loss


if __name__ == "__main__":
    w = jnp.ones(2)
    for _ in range(2):
        w, loss = train_step(w, jnp.ones((4, 2)), jnp.zeros(4))
        (loss2, _), _ = jax.value_and_grad(loss_fn, has_aux=True)(w, jnp.ones((4, 2)), jnp.zeros(4))
        print("loss after the step", loss, loss2)
