"""Sharp Bits / "Dynamic shapes": a masked loss under `jax.jit(jax.value_and_grad(loss))`.

The mask depends on the traced predictions: NonConcreteBooleanIndexError at trace time.
"""
import jax
import jax.numpy as jnp


def hinge_loss(w, x, y):
    margins = y * (x @ w)
    violated = margins < 1.0
    return jnp.sum(1.0 - margins[violated])  # expect: boolean-indexing-in-jit


train_step = jax.jit(jax.value_and_grad(hinge_loss))


if __name__ == "__main__":
    x = jnp.ones((4, 2))
    y = jnp.array([1.0, -1.0, 1.0, -1.0])
    print(train_step(jnp.zeros(2), x, y))
