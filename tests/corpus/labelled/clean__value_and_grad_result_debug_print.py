"""Sharp Bits / "Printing inside jit": the loss of `jax.value_and_grad` shown with `jax.debug.print`.

`jax.debug.print` runs on every call with the value; the plain `print` after the jitted call
prints a concrete array. Nothing here is a sharp bit.
"""
import jax
import jax.numpy as jnp


def loss_fn(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


@jax.jit
def train_step(w, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(w, x, y)
    jax.debug.print("loss {}", loss)
    return w - 0.1 * grads, loss


if __name__ == "__main__":
    w = jnp.ones(2)
    for _ in range(2):
        w, loss = train_step(w, jnp.ones((4, 2)), jnp.zeros(4))
        print("loss after the step", loss)
