"""A training loop with a dataclass state holding `rng`: each step rebuilds the state as
`TrainState(params, state.rng, step + 1)`, carrying the same key, so every step drops the same units.
"""
from dataclasses import dataclass

import jax
import jax.numpy as jnp


@dataclass
class TrainState:
    params: jax.Array
    rng: jax.Array
    step: int = 0


@jax.jit
def train_step(params, x, dropout_rng):
    keep = jax.random.bernoulli(dropout_rng, 0.5, x.shape)
    h = jnp.where(keep, x, 0.0) * 2.0
    return params - 0.01 * h.mean(), keep


def fit(state: TrainState, batches) -> tuple[TrainState, list]:
    masks = []
    for x in batches:
        params, keep = train_step(state.params, x, state.rng)  # expect: prng-key-reuse
        state = TrainState(params, state.rng, state.step + 1)
        masks.append(keep)
    return state, masks


if __name__ == "__main__":
    st = TrainState(jnp.zeros(()), jax.random.PRNGKey(0))
    st, masks = fit(st, [jnp.ones(16)] * 4)
    if all(bool((m == masks[0]).all()) for m in masks):
        print("SHARP BIT: 4 steps, one dropout mask")
