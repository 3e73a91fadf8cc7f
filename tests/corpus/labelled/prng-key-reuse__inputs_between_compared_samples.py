"""gpjax's sample_approx test: two functions sampled from one key on purpose and compared (the same seed must
give the same function), but the inputs `x` are drawn from that key too, between them: the inputs share the bits
of both sampled functions' features (each of the later uses is its own finding).
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
    sampled = sample_approx(1, key, 100)
    x = jax.random.uniform(key, (20, 2), minval=-2.0, maxval=2.0)  # expect: prng-key-reuse
    evals = sampled(x)
    sampled_2 = sample_approx(1, key, 100)  # expect: prng-key-reuse
    evals_2 = sampled_2(x)
    assert jnp.max(jnp.abs(evals - evals_2)) == 0.0


if __name__ == "__main__":
    test_same_seed_same_function()  # passes: the comparison cannot see that x shares the features' bits
    print("passes")
