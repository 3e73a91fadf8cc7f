"""The bug twin of clean__draw_thrown_away_by_its_statement.py: the first shuffle is kept, and the second one,
from the same key, is the very same order.
"""
import jax
import jax.numpy as jnp


def shuffle_twice(key, walkers):
    first = jax.random.permutation(key, walkers)
    second = jax.random.permutation(key, walkers)  # expect: prng-key-reuse
    return first, second


if __name__ == "__main__":
    a, b = shuffle_twice(jax.random.PRNGKey(0), jnp.arange(6))
    print("SHARP BIT: same order:", bool((a == b).all()))
