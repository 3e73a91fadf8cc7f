"""Project script: a `StreamSampler` from the project's `samplers.gaussian` module splits its stored key on every
draw, so the two batches of noise differ.
"""
import jax
import jax.numpy as jnp

from samplers.gaussian import StreamSampler


def make_batches(seed):
    sampler = StreamSampler(jax.random.key(seed))
    first = sampler.draw(4)
    second = sampler.draw(4)
    return first, second


if __name__ == "__main__":
    a, b = make_batches(0)
    if bool(jnp.all(a == b)):
        print("SHARP BIT: two noise batches are identical:", a)
