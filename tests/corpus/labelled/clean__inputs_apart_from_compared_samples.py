"""The clean twin of prng-key-reuse__inputs_between_compared_samples.py: the inputs come from their own key, and
the two functions sampled from one key are compared on purpose (the same seed must give the same function).
"""
import jax
import jax.numpy as jnp


def sample_approx(n, key, num_features):
    if num_features < 1:
        raise ValueError("num_features >= 1")
    w = jax.random.normal(key, (num_features, 2))
    return lambda x: jnp.cos(x @ w.T).sum(-1, keepdims=True) * n


def test_same_seed_same_function():
    key = jax.random.PRNGKey(123)
    x = jax.random.uniform(jax.random.PRNGKey(7), (20, 2), minval=-2.0, maxval=2.0)
    sampled = sample_approx(1, key, 100)
    evals = sampled(x)
    sampled_2 = sample_approx(1, key, 100)
    evals_2 = sampled_2(x)
    assert jnp.max(jnp.abs(evals - evals_2)) == 0.0


if __name__ == "__main__":
    test_same_seed_same_function()
    print("same seed, same function: ok")
