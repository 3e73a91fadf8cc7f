"""A frozen dataclass train state carries the dropout key; the step splits it, draws from one half and stores
the other with `dataclasses.replace`, so each step draws a new dropout mask.
"""
import dataclasses

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class TrainState:
    params: jax.Array
    key: jax.Array
    step: int = 0


def train_step(state, batch):
    key, drop_key = jax.random.split(state.key)
    keep = jax.random.bernoulli(drop_key, 0.5, state.params.shape)
    grads = jnp.where(keep, batch.mean(0), 0.0)
    return dataclasses.replace(state, params=state.params - 0.1 * grads, key=key, step=state.step + 1), keep


if __name__ == "__main__":
    state = TrainState(jnp.zeros(16), jax.random.key(0))
    masks = []
    for _ in range(4):
        state, keep = train_step(state, jnp.ones((2, 16)))
        masks.append(keep)
    if all(bool(jnp.all(m == masks[0])) for m in masks):
        print("SHARP BIT: 4 steps, one dropout mask")
