"""A logging decorator of the module whose wrapper only forwards `*args, **kwargs`: a sampler decorated with it
still takes the caller's key, so calling it twice with one key draws the same noise twice.
"""
import functools

import jax
import jax.numpy as jnp


def logged(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs)
    return wrapper


@logged
def noise(key, n):
    return jax.random.normal(key, (n,))


if __name__ == "__main__":
    key = jax.random.key(0)
    a = noise(key, 3)
    b = noise(key, 3)  # expect: prng-key-reuse
    if bool(jnp.all(a == b)):
        print("SHARP BIT: two noise draws through the decorator are identical:", a)
