"""Sharp Bits / control flow: "In-place updates" on the carry inside a `lax.scan` body.

A histogram built step by step: `counts[b] += 1` on the traced carry raises TypeError.
"""
import jax.numpy as jnp
from jax import lax


def accumulate(counts, value):
    b = jnp.clip(value.astype(jnp.int32), 0, counts.shape[0] - 1)
    counts[b] += 1  # expect: in-place-update
    return counts, b


def histogram(values, bins=10):
    counts, _ = lax.scan(accumulate, jnp.zeros(bins, jnp.int32), values)
    return counts


if __name__ == "__main__":
    print(histogram(jnp.array([0.5, 1.5, 1.7, 9.0])))
