"""A test that checks only the shapes of what a distribution gives (flowjax's broadcasting test): the second
draw from the same key (`samples, log_probs = d.sample_and_log_prob(key, ...)`) is read only for `.shape`, so no
number it drew is ever looked at.
"""
import jax
import jax.numpy as jnp


def sample(key, n):
    if n < 1:
        raise ValueError("n >= 1")
    return jax.random.normal(key, (n, 2))


def sample_and_log_prob(key, n):
    x = sample(key, n)
    return x, -0.5 * jnp.sum(x**2, -1)


def test_shapes():
    key = jax.random.PRNGKey(0)
    samples = sample(key, 5)
    assert jnp.isfinite(samples).all()
    samples, log_probs = sample_and_log_prob(key, 5)
    assert samples.shape == (5, 2)
    assert log_probs.shape == (5,)


if __name__ == "__main__":
    test_shapes()
    print("shapes checked")
