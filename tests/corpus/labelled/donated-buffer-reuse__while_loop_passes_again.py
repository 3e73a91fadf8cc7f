"""Refining an estimate in a Python `while` loop with a donating step, keeping each result under a new name.

The second iteration passes the already-donated `x` again: ValueError (Buffer has been deleted or donated).
"""
import jax
import jax.numpy as jnp


def newton(x):
    return x - (x ** 2 - 2.0) / (2.0 * x)


newton_step = jax.jit(newton, donate_argnums=0)

if __name__ == "__main__":
    x = jnp.array([1.0, 2.0])
    iterations = 0
    while iterations < 3:
        estimate = newton_step(x)  # expect: donated-buffer-reuse
        iterations += 1
    print(estimate)
