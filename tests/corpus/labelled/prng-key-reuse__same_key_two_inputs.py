"""The twin of clean__assert_same_key_same_sample: the two samples are not compared with each other but both fed
to the code under test as if independent: they are the same numbers.
"""
import jax
import jax.numpy as jnp


class UniformTimeSampler:
    def __call__(self, key):
        return jax.random.uniform(key, (8,))


def test_mean_time():
    sampler = UniformTimeSampler()
    key = jax.random.PRNGKey(99)
    t0 = sampler(key)
    t1 = sampler(key)  # expect: prng-key-reuse
    times = jnp.concatenate([t0, t1])
    assert 0.0 <= float(times.mean()) <= 1.0
    return times


if __name__ == "__main__":
    times = test_mean_time()
    if bool((times[:8] == times[8:]).all()):
        print("SHARP BIT: the two 'independent' samples are identical")
