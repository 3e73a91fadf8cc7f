"""Suppression comments that do nothing: a misspelled code, and one whose problem was fixed long ago."""

import jax


def sample(key):
    a = jax.random.normal(key, (3,))
    b = jax.random.normal(key, (3,))  # noqa: SB2O1  (the letter O: the reuse is still reported)
    return a, b


def sample_fixed(key):
    key_a, key_b = jax.random.split(key)
    a = jax.random.normal(key_a, (3,))
    b = jax.random.normal(key_b, (3,))  # noqa: SB201  (nothing left to silence here)
    return a, b


if __name__ == "__main__":
    print(sample(jax.random.key(0)), sample_fixed(jax.random.key(1)))
