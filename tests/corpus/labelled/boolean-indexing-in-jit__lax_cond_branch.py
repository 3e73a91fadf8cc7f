"""Sharp Bits / "Control flow": a `lax.cond` branch that filters with a boolean mask.

Both branches are traced, so the mask is a tracer even when the call is eager.
"""
import jax.numpy as jnp
from jax import lax


def sum_positive(x):
    return jnp.sum(x[x > 0])  # expect: boolean-indexing-in-jit


def sum_all(x):
    return jnp.sum(x)


def total(x, only_positive):
    return lax.cond(only_positive, sum_positive, sum_all, x)


if __name__ == "__main__":
    print(total(jnp.array([-1.0, 2.0]), True))
