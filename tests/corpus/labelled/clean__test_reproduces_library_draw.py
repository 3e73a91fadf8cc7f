"""numpyro/blackjax-style unit test: the expected value reproduces the library's draw on purpose, by
calling the same sampler on the same key. Reusing the key here is the point of the test.
"""
import jax
import jax.numpy as jnp
import numpy as np


def gaussian_proposal(key, position, scale):
    return position + scale * jax.random.normal(key, position.shape)


def test_gaussian_proposal_matches_normal():
    key = jax.random.PRNGKey(42)
    position, scale = jnp.array([1.0, -2.0]), 0.5
    actual = gaussian_proposal(key, position, scale)
    expected = position + scale * jax.random.normal(key, position.shape)
    np.testing.assert_allclose(actual, expected, rtol=1e-6)


if __name__ == "__main__":
    test_gaussian_proposal_matches_normal()
    print("passed")
