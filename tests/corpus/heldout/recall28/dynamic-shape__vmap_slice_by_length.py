"""Averaging each padded sequence over its true length with `jax.vmap(lambda x, n: x[:n].mean())`: under vmap
the length is traced and the slice bound must be static.
"""
import jax
import jax.numpy as jnp


def mean_valid(x, n):
    return x[:n].mean()  # expect: dynamic-shape


if __name__ == "__main__":
    seqs = jnp.array([[1.0, 2.0, 0.0], [4.0, 0.0, 0.0]])
    lengths = jnp.array([2, 1])
    print(jax.vmap(mean_valid)(seqs, lengths))
