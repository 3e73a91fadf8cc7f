"""Averaging each padded sequence over its true length under `jax.vmap`: the mask `jnp.arange(L) < n` keeps the
shape static.
"""
import jax
import jax.numpy as jnp


def mean_valid(x, n):
    keep = jnp.arange(x.shape[0]) < n
    return jnp.sum(jnp.where(keep, x, 0.0)) / n


if __name__ == "__main__":
    seqs = jnp.array([[1.0, 2.0, 0.0], [4.0, 0.0, 0.0]])
    lengths = jnp.array([2, 1])
    print(jax.vmap(mean_valid)(seqs, lengths))
