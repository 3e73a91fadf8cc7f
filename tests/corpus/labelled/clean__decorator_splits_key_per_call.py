"""A decorator that supplies a PRNG key to stochastic functions: it keeps the key in a one-element list and
splits it on every call, so each call draws from a fresh key.
"""
import functools

import jax
import jax.numpy as jnp


def stochastic(seed):
    def decorate(fn):
        state = [jax.random.key(seed)]

        @functools.wraps(fn)
        def wrapper(*args):
            state[0], sub = jax.random.split(state[0])
            return fn(sub, *args)
        return wrapper
    return decorate


@stochastic(seed=0)
def noisy_value(key, q_values):
    return q_values + jax.random.normal(key, q_values.shape)


if __name__ == "__main__":
    q = jnp.array([0.1, 0.5, 0.2, 0.9])
    values = [noisy_value(q) for _ in range(3)]
    if bool(jnp.all(values[0] == values[1])):
        print("SHARP BIT: two calls, one noise")
