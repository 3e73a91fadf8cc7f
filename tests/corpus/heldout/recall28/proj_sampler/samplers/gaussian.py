"""Gaussian samplers that keep their PRNG key on the object (a project helper module).

`FixedSampler.draw` hands the stored key to `jax.random.normal` unchanged; `StreamSampler.draw` splits it first
and keeps the other half for the next call.
"""
import jax


class FixedSampler:
    def __init__(self, key):
        self.key = key

    def draw(self, n):
        return jax.random.normal(self.key, (n,))


class StreamSampler:
    def __init__(self, key):
        self.key = key

    def draw(self, n):
        self.key, sub = jax.random.split(self.key)
        return jax.random.normal(sub, (n,))
