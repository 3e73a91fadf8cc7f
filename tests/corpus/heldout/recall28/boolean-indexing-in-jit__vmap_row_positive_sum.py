"""Summing the positive entries of each row with `jax.vmap(lambda row: row[row > 0].sum())`: under `vmap` each
row is a tracer, so the boolean index has no concrete shape and raises.
"""
import jax
import jax.numpy as jnp


def positive_mass(m):
    return jax.vmap(lambda row: row[row > 0].sum())(m)  # expect: boolean-indexing-in-jit


if __name__ == "__main__":
    print(positive_mass(jnp.array([[1.0, -2.0, 3.0], [-1.0, 4.0, -5.0]])))
