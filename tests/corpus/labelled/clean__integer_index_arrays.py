"""Indexing docs: integer index arrays (gathers) inside jit have static shapes and are fine.
"""
import jax
import jax.numpy as jnp


@jax.jit
def embed(table, token_ids):
    return table[token_ids]


@jax.jit
def top_k_rows(x, scores, k=2):
    _, idx = jax.lax.top_k(scores, k)
    return x[idx]


@jax.jit
def gather_labels(logits, labels):
    rows = jnp.arange(logits.shape[0])
    return logits[rows, labels]


if __name__ == "__main__":
    table = jnp.arange(12.0).reshape(4, 3)
    print(embed(table, jnp.array([0, 3])), top_k_rows(table, jnp.arange(4.0)))
    print(gather_labels(table, jnp.array([0, 1, 2, 0])))
