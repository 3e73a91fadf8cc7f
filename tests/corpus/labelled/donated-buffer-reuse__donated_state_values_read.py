"""The bug twin of clean__donated_state_metadata_reads.py: the donated dict's values are read after the call,
so JAX raises `RuntimeError: Array has been deleted`.
"""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, donate_argnums=0)
def step(state):
    return jax.tree.map(lambda v: v * 0.9, state)


def run(state):
    new_state = step(state)
    change = jax.tree.map(lambda a, b: jnp.abs(a - b).max(), new_state, state)  # expect: donated-buffer-reuse
    return new_state, change


if __name__ == "__main__":
    print(run({"w": jnp.ones((3,)), "b": jnp.zeros((3,))}))
