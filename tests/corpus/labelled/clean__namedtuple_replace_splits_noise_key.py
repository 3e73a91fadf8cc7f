"""A NamedTuple sampler state carries the noise key; `langevin_step` splits it, draws its noise from the new half
and returns `state._replace(x=..., key=key)`, so each step of the caller's loop adds fresh noise.
"""
from typing import NamedTuple

import jax
import jax.numpy as jnp


class Chain(NamedTuple):
    x: jax.Array
    key: jax.Array


def langevin_step(state, step_size=0.01):
    key, sub = jax.random.split(state.key)
    noise = jax.random.normal(sub, state.x.shape)
    return state._replace(x=state.x - step_size * state.x + jnp.sqrt(2 * step_size) * noise, key=key)


if __name__ == "__main__":
    state = Chain(jnp.zeros(4), jax.random.key(1))
    for _ in range(3):
        state = langevin_step(state)
    print(state.x)
