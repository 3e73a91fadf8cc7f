"""A NamedTuple sampler state carries the noise key; `langevin_step` draws its noise from `state.key` and returns
`state._replace(x=...)`, which keeps that key, so the caller's loop `state = langevin_step(state)` adds the same
noise at every step.
"""
from typing import NamedTuple

import jax
import jax.numpy as jnp


class Chain(NamedTuple):
    x: jax.Array
    key: jax.Array


def langevin_step(state, step_size=0.01):
    noise = jax.random.normal(state.key, state.x.shape)  # expect: prng-key-reuse
    return state._replace(x=state.x - step_size * state.x + jnp.sqrt(2 * step_size) * noise)


if __name__ == "__main__":
    state = Chain(jnp.zeros(4), jax.random.key(1))
    increments = []
    for _ in range(3):
        new = langevin_step(state)
        increments.append(new.x - (1 - 0.01) * state.x)
        state = new
    state = langevin_step(state)
    if all(bool(jnp.allclose(d, increments[0])) for d in increments):
        print("SHARP BIT: three steps, one noise vector")
