"""Sharp Bits / "Control flow": the same gradient descent with its literal count given to `lax.fori_loop`.

A short Python `while` that remains only halves a Python float (a static step size) before tracing
the loop, which is what a `while` on Python values is for.
"""
import jax
import jax.numpy as jnp


@jax.jit
def gradient_descent(x):
    lr, max_iter = 0.16, 300
    while lr > 0.01:
        lr = lr / 2
    return jax.lax.fori_loop(0, max_iter, lambda _, x: x - lr * (4.0 * x**3 - 4.0 * x), x)


if __name__ == "__main__":
    print(gradient_descent(jnp.ones(3)))
