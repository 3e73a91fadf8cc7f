"""The same training loops with the key advanced in each step: split `state.rng`, draw from one piece, and carry
the other in the new record (`TrainState(params, rng, ...)`, `carry._replace(params=p, rng=rng)`,
`dataclasses.replace(state, params=p, rng=rng)`): every step draws a new mask."""
from dataclasses import dataclass, replace
from typing import NamedTuple

import jax
import jax.numpy as jnp


@dataclass
class TrainState:
    params: jax.Array
    rng: jax.Array
    step: int = 0


class Carry(NamedTuple):
    params: jax.Array
    rng: jax.Array


@jax.jit
def train_step(params, x, dropout_rng):
    keep = jax.random.bernoulli(dropout_rng, 0.5, x.shape)
    return params - 0.01 * jnp.where(keep, x, 0.0).mean(), keep


def fit(state: TrainState, carry: Carry, batches):
    masks = []
    for x in batches:
        rng, step_rng = jax.random.split(state.rng)
        params, keep = train_step(state.params, x, step_rng)
        state = TrainState(params, rng, state.step + 1)
        rng, step_rng = jax.random.split(carry.rng)
        params, keep2 = train_step(carry.params, x, step_rng)
        carry = carry._replace(params=params, rng=rng)
        state = replace(state, params=params)
        masks.append((keep, keep2))
    return masks


if __name__ == "__main__":
    a, b = jax.random.split(jax.random.PRNGKey(0))
    masks = fit(TrainState(jnp.zeros(()), a), Carry(jnp.zeros(()), b), [jnp.ones(16)] * 4)
    assert not all(bool((m[0] == masks[0][0]).all()) for m in masks)
    assert not all(bool((m[1] == masks[0][1]).all()) for m in masks)
    print("a new mask every step")
