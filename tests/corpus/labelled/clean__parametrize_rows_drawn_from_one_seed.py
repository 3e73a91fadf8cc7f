"""dynamax 1.0.3 hidden_markov_model/models/test_models.py: tables of test cases whose rows hold input arrays
drawn from `PRNGKey(0)`, read only by `pytest.mark.parametrize`. pytest runs every row as a test of its own, so
the draws of two rows (or of two tables) never meet in one computation: each case sees one fixed input.
"""
import jax
import jax.numpy as jnp
import pytest

T = 20

CASES = [
    ("linear", jax.random.normal(jax.random.PRNGKey(0), (T, 5))),
    ("ones", jnp.ones((T, 5))),
    ("logistic", jax.random.normal(jax.random.PRNGKey(0), (T, 5))),
]

SCALED = [
    (2.0, jax.random.normal(jax.random.PRNGKey(0), (T, 3))),
    (0.5, None),
]


@pytest.mark.parametrize(["name", "inputs"], CASES)
def test_fit(name, inputs):
    assert inputs.shape == (T, 5) and bool(jnp.isfinite(inputs).all()), name


@pytest.mark.parametrize(["scale", "inputs"], SCALED)
def test_scaled(scale, inputs):
    if inputs is not None:
        assert bool(jnp.isfinite(scale * inputs).all())


if __name__ == "__main__":
    raise SystemExit(pytest.main([__file__, "-q", "-p", "no:cacheprovider"]))
