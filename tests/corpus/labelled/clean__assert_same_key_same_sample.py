"""A reproducibility test: the same key given to the sampler twice must give the same sample, and the two calls
sit on the two sides of one comparison in the `assert` (round 38: a time sampler's tests, a world's observation).
"""
import jax
import jax.numpy as jnp


class UniformTimeSampler:
    def __call__(self, key):
        return jax.random.uniform(key, (8,))


def test_reproducible_with_same_key():
    sampler = UniformTimeSampler()
    key = jax.random.PRNGKey(99)
    assert jnp.array_equal(sampler(key), sampler(key))


def test_first_times_agree():
    sampler = UniformTimeSampler()
    key = jax.random.PRNGKey(7)
    assert float(sampler(key)[0]) == float(sampler(key)[0])


if __name__ == "__main__":
    test_reproducible_with_same_key()
    test_first_times_agree()
    print("ok")
