"""JAX arrays are immutable: `x[i] = v` raises a TypeError (inside `jit`, at trace time).

The JAX way is a functional update that returns a new array: `x = x.at[i].set(v)`. Under `jit`, XLA
performs it in place anyway when the old array is not used afterwards, so it costs nothing extra.
"""

from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


@partial(jax.jit, static_argnames="n")
def one_hot(i, n: int):
    v = jnp.zeros(n)
    v[i] = 1.0  # JAX arrays are immutable
    return v


def normalise_rows(table: np.ndarray) -> np.ndarray:
    """Plain NumPy arrays are mutable: this in-place update is fine and stays silent."""
    result = np.array(table, dtype=float)
    for row in range(result.shape[0]):
        result[row] = result[row] / result[row].sum()
    return result
