"""Sharp Bits: "In-place updates" in a per-row function mapped with `jax.vmap(f)`.

Each row is a batched tracer; `row[i] = ...` raises TypeError.
"""
import jax
import jax.numpy as jnp


def one_hot_row(row, label):
    row = jnp.zeros_like(row)
    row[label] = 1.0  # expect: in-place-update
    return row


batched_one_hot = jax.vmap(one_hot_row)


if __name__ == "__main__":
    logits = jnp.zeros((4, 10))
    labels = jnp.array([1, 3, 5, 7])
    print(batched_one_hot(logits, labels))
