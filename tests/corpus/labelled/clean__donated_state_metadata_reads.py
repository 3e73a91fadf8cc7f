"""Reads after donation that touch no buffer: the donated dict's keys, an identity test, and a leaf's shape
and dtype. JAX keeps an array's metadata after its buffer is deleted, and a dict's keys are Python.
"""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, donate_argnums=0)
def step(state):
    return jax.tree.map(lambda v: v * 0.9, state)


def run(state):
    new_state = step(state)
    assert state is not None
    names = list(state.keys())
    shape, dtype = state["w"].shape, state["w"].dtype
    return new_state, names, shape, dtype


if __name__ == "__main__":
    print(run({"w": jnp.ones((3,)), "b": jnp.zeros((3,))})[1:])
