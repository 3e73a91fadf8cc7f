"""A key drawn from and then returned as the next key (evox's SNES `ask`, a sampler returning its key).

`ask` draws its noise from `key` and stores that same key as the state's key: the next `ask` splits it, so its
noise is made from the bits this one drew (run: the two asks' keys are related, and `sample` returns a key whose
next `normal` repeats the sample exactly).
"""
from typing import NamedTuple

import jax


class State(NamedTuple):
    key: jax.Array
    noise: jax.Array


def ask(state):
    key, _ = jax.random.split(state.key)
    noise = jax.random.normal(key, (3,))
    return noise, state._replace(key=key, noise=noise)  # expect: prng-key-reuse


def sample(key):
    x = jax.random.normal(key, (3,))
    return x, key  # expect: prng-key-reuse


if __name__ == "__main__":
    x, key = sample(jax.random.PRNGKey(0))
    y = jax.random.normal(key, (3,))
    print("the next draw repeats the sample:", bool((x == y).all()))
    noise, state = ask(State(jax.random.PRNGKey(1), jax.numpy.zeros(3)))
    print(noise, state.key)
