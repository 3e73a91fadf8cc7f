"""A pytest test module: the function under test asserts that its output is a probability vector with a plain
`assert` inside `@jax.jit`. The assertion calls `bool()` on a traced comparison and the test errors out.
"""
import jax
import jax.numpy as jnp
import pytest


@jax.jit
def normalise(w):
    p = w / jnp.sum(w)
    assert jnp.all(p >= 0)  # expect: traced-control-flow
    return p


@pytest.mark.parametrize("n", [2, 5])
def test_normalise_sums_to_one(n):
    p = normalise(jnp.arange(1.0, n + 1.0))
    assert jnp.allclose(p.sum(), 1.0)


if __name__ == "__main__":
    test_normalise_sums_to_one(2)
    test_normalise_sums_to_one(5)
