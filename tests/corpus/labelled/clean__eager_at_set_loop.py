"""Eager code: `.at[i].set` in a Python loop outside jit is correct (each call returns a new array).
"""
import jax
import jax.numpy as jnp


def fill_diagonal(n, values):
    out = jnp.zeros((n, n))
    for i in range(n):
        out = out.at[i, i].set(values[i])
    return out


@jax.jit
def trace_of(x):
    return jnp.trace(x)


if __name__ == "__main__":
    m = fill_diagonal(3, jnp.array([1.0, 2.0, 3.0]))
    print(m, trace_of(m))
