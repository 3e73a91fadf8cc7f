"""Flax/optax-style train state carried as a NamedTuple with an `rng` field, consumed twice in a step.

The dropout mask and the label-noise draw both come from `state.rng`; under jit `jax_debug_key_reuse`
raises KeyReuseError.
"""
from typing import NamedTuple

import jax
import jax.numpy as jnp


class TrainState(NamedTuple):
    params: jax.Array
    rng: jax.Array


@jax.jit
def train_step(state, x, y):
    mask = jax.random.bernoulli(state.rng, 0.9, state.params.shape)
    y_noisy = y + 0.05 * jax.random.normal(state.rng, y.shape)  # expect: prng-key-reuse
    grad = jax.grad(lambda p: jnp.mean((x @ (p * mask) - y_noisy) ** 2))(state.params)
    return state._replace(params=state.params - 0.1 * grad)


if __name__ == "__main__":
    jax.config.update("jax_debug_key_reuse", True)
    rng, state = jax.random.key(0), TrainState(jnp.ones(3), None)
    for _ in range(2):
        rng, step_rng = jax.random.split(rng)
        state = train_step(state._replace(rng=step_rng), jnp.ones((4, 3)), jnp.zeros(4))
    print(state.params)
