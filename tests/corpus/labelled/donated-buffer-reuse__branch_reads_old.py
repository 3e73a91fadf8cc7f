"""A rollback path that returns the old state when the donating update produced NaNs.

The old `state` was donated: returning it on the rollback branch raises RuntimeError: Array has been deleted.
"""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, donate_argnums=0)
def update(state, grad):
    return state - 0.1 * grad


def safe_update(state, grad):
    new_state = update(state, grad)
    if jnp.isnan(new_state).any():
        return state  # expect: donated-buffer-reuse
    return new_state


if __name__ == "__main__":
    print(safe_update(jnp.ones(3), jnp.array([0.0, jnp.nan, 1.0])))
