"""The bug twin of clean__key_generator_property.py: the property returns the key it keeps without splitting
it, so every read is the same key and the attention inputs are identical (query equal to key).
"""
import jax
import jax.numpy as jnp


class KeySource:
    def __init__(self, seed=0):
        self._state = jax.random.PRNGKey(seed)

    @property
    def key(self):
        return self._state


def make_inputs(batch, dim):
    source = KeySource(0)
    q = jax.random.normal(source.key, (batch, dim))
    k = jax.random.normal(source.key, (batch, dim))  # expect: prng-key-reuse
    return q, k


if __name__ == "__main__":
    q, k = make_inputs(2, 4)
    print("SHARP BIT: query equals key:", bool(jnp.all(q == k)))
