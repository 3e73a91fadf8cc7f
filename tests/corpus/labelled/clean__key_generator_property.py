"""A key-generator object (fjformer's GenerateRNG, haiku's PRNGSequence): every read of `rng.key` splits the
generator's own key, stores one half back and returns the other, so each draw below gets a fresh key.

Recognised by what the property does (split a key kept on the object, store one half, return the other),
not by its name.
"""
import jax
import jax.numpy as jnp


class KeySource:
    def __init__(self, seed=0):
        self._state = jax.random.PRNGKey(seed)

    @property
    def key(self):
        self._state, fresh = jax.random.split(self._state)
        return fresh


def make_inputs(batch, dim):
    source = KeySource(0)
    q = jax.random.normal(source.key, (batch, dim))
    k = jax.random.normal(source.key, (batch, dim))
    v = jax.random.normal(source.key, (batch, dim))
    return q, k, v


if __name__ == "__main__":
    q, k, v = make_inputs(2, 4)
    print("q differs from k:", not bool(jnp.all(q == k)))
