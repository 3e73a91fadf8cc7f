"""Checking that a helper's keys equal `split(key, n)`: the helper and the expected value both use `key`, and
`jax.tree.map(assert_allclose, actual, expected)` compares them leaf by leaf; a second check does the same."""
import functools

import jax
import numpy as np


def next_keys(key, n):
    return tuple(jax.random.split(key, n))


def test_keys_match_split():
    key = jax.random.PRNGKey(42)
    assert_allclose = functools.partial(np.testing.assert_allclose, atol=0)
    jax.tree.map(assert_allclose, next_keys(key, 3), tuple(jax.random.split(key, 3)))
    jax.tree.map(assert_allclose, next_keys(key, 2), tuple(jax.random.split(key, 2)))


if __name__ == "__main__":
    test_keys_match_split()
    print("passed")
