"""A pytest test module: the function under test is jitted and the test asserts on its concrete output, outside
the trace, that it is a probability vector.
"""
import jax
import jax.numpy as jnp
import pytest


@jax.jit
def normalise(w):
    return w / jnp.sum(w)


@pytest.mark.parametrize("n", [2, 5])
def test_normalise_sums_to_one(n):
    p = normalise(jnp.arange(1.0, n + 1.0))
    assert jnp.all(p >= 0)
    assert jnp.allclose(p.sum(), 1.0)


if __name__ == "__main__":
    test_normalise_sums_to_one(2)
    test_normalise_sums_to_one(5)
