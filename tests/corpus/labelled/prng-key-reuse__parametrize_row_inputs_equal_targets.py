"""The bug twin of `clean__parametrize_rows_drawn_from_one_seed.py`: one row of the parameter table draws its
inputs and its targets from `PRNGKey(0)` with one shape, so in that test case targets == inputs and the fit
learns the identity (checked below). Two draws in one row meet in one test.
"""
import jax
import jax.numpy as jnp
import pytest

T = 20

CASES = [
    ("identity", jax.random.normal(jax.random.PRNGKey(0), (T, 3)),
     jax.random.normal(jax.random.PRNGKey(0), (T, 3))),  # expect: prng-key-reuse
    ("zeros", jnp.zeros((T, 3)), jnp.ones((T, 3))),
]


@pytest.mark.parametrize(["name", "inputs", "targets"], CASES)
def test_regression(name, inputs, targets):
    w = jnp.linalg.lstsq(inputs, targets)[0]
    assert w.shape == (3, 3), name


if __name__ == "__main__":
    _, x, y = CASES[0]
    print("SHARP BIT: the case's targets equal its inputs:", bool(jnp.array_equal(x, y)))
