"""A sampler bound with `functools.partial(jax.random.normal, key)`: every call of the partial draws from the
same key, so the "fresh" noise of the second call repeats the first one (augmentation helper in a data pipeline).
"""
from functools import partial

import jax
import jax.numpy as jnp


def make_noise(seed):
    key = jax.random.key(seed)
    return partial(jax.random.normal, key)


if __name__ == "__main__":
    images = jnp.ones((2, 4))
    key = jax.random.key(0)
    noise = partial(jax.random.normal, key, dtype=jnp.float32)
    first = images + 0.1 * noise((2, 4))
    second = images + 0.1 * noise((2, 4))  # expect: prng-key-reuse
    if bool(jnp.all(first == second)):
        print("SHARP BIT: two augmentations from one partial-bound key are identical")
