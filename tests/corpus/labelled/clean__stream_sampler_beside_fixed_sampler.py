"""Two sampler classes share the method `draw` and the attribute `key`: `StreamSampler` splits its key on every
draw, `FixedSampler` keeps the key it was built with and draws from it unchanged. The caller builds a
`StreamSampler`, so its two draws are two batches.
"""
import jax
import jax.numpy as jnp


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


def make_batches(seed):
    sampler = StreamSampler(jax.random.key(seed))
    first = sampler.draw(4)
    second = sampler.draw(4)
    return first, second


if __name__ == "__main__":
    a, b = make_batches(0)
    if bool(jnp.all(a == b)):
        print("SHARP BIT: two noise batches are identical:", a)
    print("different batches:", not bool(jnp.all(a == b)))
