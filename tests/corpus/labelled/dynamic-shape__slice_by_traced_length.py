"""Truncating a padded sequence to its true length inside a jitted function.

`length` is a traced argument (not static), so `tokens[:length]` raises IndexError: slice entries must be
static integers. Use `static_argnames="length"` or `lax.dynamic_slice` with a fixed size.
"""
import jax
import jax.numpy as jnp


@jax.jit
def mean_embedding(embeddings, length):
    used = embeddings[:length]  # expect: dynamic-shape
    return used.mean(axis=0)


if __name__ == "__main__":
    print(mean_embedding(jnp.ones((8, 4)), 5))
