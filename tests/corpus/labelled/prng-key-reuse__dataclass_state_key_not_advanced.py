"""A frozen dataclass train state carries the dropout key; the step returns `dataclasses.replace(state, ...)` with
new parameters but forgets to advance the key, so every step of the loop draws the same dropout mask.
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
    keep = jax.random.bernoulli(state.key, 0.5, state.params.shape)  # expect: prng-key-reuse
    grads = jnp.where(keep, batch.mean(0), 0.0)
    return dataclasses.replace(state, params=state.params - 0.1 * grads, step=state.step + 1), keep


if __name__ == "__main__":
    state = TrainState(jnp.zeros(16), jax.random.key(0))
    masks = []
    for _ in range(4):
        state, keep = train_step(state, jnp.ones((2, 16)))
        masks.append(keep)
    if all(bool(jnp.all(m == masks[0])) for m in masks):
        print("SHARP BIT: 4 steps, one dropout mask")
