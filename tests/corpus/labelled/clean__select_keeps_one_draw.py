"""Exclusive alternatives (kinetix's UED shapes): `lax.select(c, on_triangle(rng), on_rectangle(rng))` keeps
one of the two samples, never both, so the two draws from `rng` never meet in any value.
"""
import jax
import jax.numpy as jnp


def on_triangle(rng):
    return jax.random.uniform(rng, (2,))


def on_rectangle(rng):
    return jax.random.normal(rng, (2,))


def sample_point(rng, n_vertices):
    return jax.lax.select(n_vertices <= 3, on_triangle(rng), on_rectangle(rng))


if __name__ == "__main__":
    print(sample_point(jax.random.PRNGKey(0), jnp.int32(3)))
