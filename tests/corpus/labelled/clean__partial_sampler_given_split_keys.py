"""A sampler bound by `functools.partial` with its shape, given a fresh key on each call.

The partial holds no key: `sample(k)` is `jax.random.normal(k, (3,))` with each `k` from one split, so the two
layers get different weights (the twin of prng-key-reuse__key_held_in_partial_sampler).
"""
from functools import partial

import jax
import jax.numpy as jnp


def init_layers(key):
    sample = partial(jax.random.normal, shape=(3,))
    k1, k2 = jax.random.split(key)
    w1 = sample(k1)
    w2 = sample(k2)
    return w1, w2


if __name__ == "__main__":
    w1, w2 = init_layers(jax.random.PRNGKey(0))
    if bool(jnp.all(w1 == w2)):
        print("SHARP BIT: both layers got the same weights:", w1, w2)
