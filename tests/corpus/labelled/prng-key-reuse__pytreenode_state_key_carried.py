"""A flax `struct.PyTreeNode` state holding `rng`, rebuilt every step with `State(params=..., rng=state.rng)`:
the same key goes to every step, so every step drops the same units.
"""
import jax
import jax.numpy as jnp
from flax import struct


class State(struct.PyTreeNode):
    params: jax.Array
    rng: jax.Array


@jax.jit
def train_step(params, x, rng):
    keep = jax.random.bernoulli(rng, 0.5, x.shape)
    return params - 0.01 * jnp.where(keep, x, 0.0).mean(), keep


def fit(state: State, batches):
    masks = []
    for x in batches:
        params, keep = train_step(state.params, x, state.rng)  # expect: prng-key-reuse
        state = State(params=params, rng=state.rng)
        masks.append(keep)
    return state, masks


if __name__ == "__main__":
    st, masks = fit(State(jnp.zeros(()), jax.random.PRNGKey(0)), [jnp.ones(16)] * 4)
    if all(bool((m == masks[0]).all()) for m in masks):
        print("SHARP BIT: 4 steps, one dropout mask")
