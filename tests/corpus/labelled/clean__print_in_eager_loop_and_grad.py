"""Sharp Bits / "Printing inside jit": printing where values exist.

An eager training loop prints the loss the jitted step returned, and a loss function differentiated with
`jax.grad` alone runs on concrete values, so its print shows a value on every call.
"""
import jax
import jax.numpy as jnp


def loss(w):
    value = jnp.sum(w ** 2)
    print("loss value:", value)
    return value


@jax.jit
def step(w):
    return w - 0.1 * jax.grad(lambda v: jnp.sum(v ** 2))(w)


if __name__ == "__main__":
    w = jnp.ones(2)
    for i in range(3):
        w = step(w)
        print(f"step {i}: w={w}, loss={float(jnp.sum(w ** 2)):.4f}")
    print("grad:", jax.grad(loss)(w))
