"""A draw inside an assertion still draws: `assertTrue(jnp.all(sample(key) >= 0))` consumes the key, so the
sample taken afterwards repeats the checked numbers."""
import unittest

import jax
import jax.numpy as jnp


def sample(key):
    return jax.random.uniform(key, (5,))


class SampleTest(unittest.TestCase):
    def test_sample(self):
        key = jax.random.PRNGKey(0)
        self.assertTrue(bool(jnp.all(sample(key) >= 0)))
        fresh = sample(key)  # expect: prng-key-reuse
        self.assertEqual(fresh.shape, (5,))
        print("SHARP BIT: the 'fresh' sample repeats the checked one:",
              bool(jnp.array_equal(fresh, sample(jax.random.PRNGKey(0)))))


if __name__ == "__main__":
    unittest.main()
