"""A loop carry as a NamedTuple (and a dataclass updated with `dataclasses.replace`): each step replaces only the
parameters, so `carry.rng` is the same key on every step and every step draws the same dropout mask."""
from dataclasses import dataclass, replace
from typing import NamedTuple

import jax
import jax.numpy as jnp


class Carry(NamedTuple):
    params: jax.Array
    rng: jax.Array


@dataclass(frozen=True)
class State:
    params: jax.Array
    rng: jax.Array


@jax.jit
def train_step(params, x, dropout_rng):
    keep = jax.random.bernoulli(dropout_rng, 0.5, x.shape)
    return params - 0.01 * jnp.where(keep, x, 0.0).mean(), keep


def fit(carry: Carry, state: State, batches):
    masks = []
    for x in batches:
        params, keep = train_step(carry.params, x, carry.rng)  # expect: prng-key-reuse
        carry = carry._replace(params=params)
        params, keep2 = train_step(state.params, x, state.rng)  # expect: prng-key-reuse
        state = replace(state, params=params)
        masks.append((keep, keep2))
    return masks


if __name__ == "__main__":
    key = jax.random.PRNGKey(0)
    a, b = jax.random.split(key)
    masks = fit(Carry(jnp.zeros(()), a), State(jnp.zeros(()), b), [jnp.ones(16)] * 4)
    if all(bool((m[0] == masks[0][0]).all() and (m[1] == masks[0][1]).all()) for m in masks):
        print("SHARP BIT: 4 steps, one dropout mask in each carry")
