"""The bug twin of clean__second_draw_read_for_shapes.py: the second draw's values are used (its log-probabilities
are averaged into the returned estimate) and they repeat the first draw's numbers.
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


def estimate():
    key = jax.random.PRNGKey(0)
    samples = sample(key, 5)
    again, log_probs = sample_and_log_prob(key, 5)  # expect: prng-key-reuse
    assert again.shape == (5, 2)
    return samples, again, log_probs.mean()


if __name__ == "__main__":
    samples, again, m = estimate()
    print("same samples:", bool((samples == again).all()), m)
