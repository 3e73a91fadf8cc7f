"""A sampler bound with `functools.partial(jax.random.normal, shape=...)`: the key stays an argument and each
call gets its own half of a split, so the two augmentations differ (data pipeline helper).
"""
from functools import partial

import jax
import jax.numpy as jnp


def make_noise(shape):
    return partial(jax.random.normal, shape=shape)


if __name__ == "__main__":
    images = jnp.ones((2, 4))
    key = jax.random.key(0)
    noise = partial(jax.random.normal, dtype=jnp.float32)
    k1, k2 = jax.random.split(key)
    first = images + 0.1 * noise(k1, (2, 4))
    second = images + 0.1 * noise(k2, (2, 4))
    if bool(jnp.all(first == second)):
        print("SHARP BIT: two augmentations are identical")
    print(float(jnp.abs(first - second).mean()))
