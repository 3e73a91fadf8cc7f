"""Summing the positive entries of each row with `jax.vmap(lambda row: jnp.where(row > 0, row, 0).sum())`: the
shape does not depend on the values, so it maps.
"""
import jax
import jax.numpy as jnp


def positive_mass(m):
    return jax.vmap(lambda row: jnp.where(row > 0, row, 0.0).sum())(m)


if __name__ == "__main__":
    print(positive_mass(jnp.array([[1.0, -2.0, 3.0], [-1.0, 4.0, -5.0]])))
