"""A function's own import shadows the module's: `random` here is Python's, not `jax.random`.

The module imports `jax.random` as `random`, but `shuffled` imports the standard library's `random` in its body,
so `random.choice(items)` twice is two draws from Python's generator; and `noisy` splits before each draw.
"""
from jax import random


def shuffled(items):
    import random

    first = random.choice(items)
    second = random.choice(items)
    return first, second


def noisy(x):
    import jax

    key = jax.random.PRNGKey(0)
    key, sub = jax.random.split(key)
    a = jax.random.normal(sub, x.shape)
    key, sub = jax.random.split(key)
    return x + a + jax.random.normal(sub, x.shape)


if __name__ == "__main__":
    import jax.numpy as jnp

    print(shuffled([1, 2, 3]), noisy(jnp.zeros(3)), random.PRNGKey(0))
