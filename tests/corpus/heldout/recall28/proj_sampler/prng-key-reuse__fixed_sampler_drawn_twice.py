"""Project script: a `FixedSampler` from the project's `samplers.gaussian` module keeps its key on the object and
draws from it unchanged, so the second batch of noise equals the first.
"""
import jax
import jax.numpy as jnp

from samplers.gaussian import FixedSampler


def make_batches(seed):
    sampler = FixedSampler(jax.random.key(seed))
    first = sampler.draw(4)
    second = sampler.draw(4)  # expect: prng-key-reuse
    return first, second


if __name__ == "__main__":
    a, b = make_batches(0)
    if bool(jnp.all(a == b)):
        print("SHARP BIT: two noise batches are identical:", a)
