"""Determinism test in the blackjax style: run a kernel, then reset with `state = init(key)` word for word
and run again; both runs must agree. The repeated `init(key)` is deliberate.
"""
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np


class WalkState(NamedTuple):
    position: jax.Array
    rng: jax.Array


def init(key):
    init_key, rng = jax.random.split(key)
    return WalkState(jax.random.normal(init_key, (2,)), rng)


@jax.jit
def step(state):
    rng, sub = jax.random.split(state.rng)
    return WalkState(state.position + 0.1 * jax.random.normal(sub, (2,)), rng)


def test_walk_is_deterministic():
    key = jax.random.PRNGKey(0)
    state = init(key)
    for _ in range(3):
        state = step(state)
    first = state.position
    state = init(key)
    for _ in range(3):
        state = step(state)
    np.testing.assert_array_equal(first, state.position)


if __name__ == "__main__":
    test_walk_is_deterministic()
    print("passed")
