"""A decorator derives a new key for every call from the module's key and a call counter (`fold_in(KEY, n)`), so
each call of the wrapped function draws new noise.
"""
import itertools

import jax
import jax.numpy as jnp

KEY = jax.random.PRNGKey(42)
CALLS = itertools.count()


def with_noise(fn):
    def wrapper(x):
        return fn(jax.random.fold_in(KEY, next(CALLS)), x)
    return wrapper


@with_noise
def jitter(key, x):
    return x + 0.1 * jax.random.normal(key, x.shape)


if __name__ == "__main__":
    a = jitter(jnp.zeros(3))
    b = jitter(jnp.zeros(3))
    print(bool(jnp.all(a == b)))
