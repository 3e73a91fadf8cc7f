"""A sampler with its key bound by `functools.partial`, called twice.

`sample = partial(jax.random.normal, key)` holds the key: every call `sample(shape)` is
`jax.random.normal(key, shape)`, so the two draws below are the same numbers. Binding the shape instead and
passing split keys gives fresh numbers (see clean__partial_sampler_given_split_keys).
"""
from functools import partial

import jax
import jax.numpy as jnp


def init_layers(key):
    sample = partial(jax.random.normal, key)
    w1 = sample((3,))
    w2 = sample((3,))  # expect: prng-key-reuse
    return w1, w2


if __name__ == "__main__":
    w1, w2 = init_layers(jax.random.PRNGKey(0))
    if bool(jnp.all(w1 == w2)):
        print("SHARP BIT: both layers got the same weights:", w1, w2)
