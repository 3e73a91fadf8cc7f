"""A lookup table kept as a module-level placeholder (`None`, an empty array) and filled by a parameterless
initialiser that reads it from a file (here: computes it) before the model runs. Every call of the initialiser
writes the same values, so a trace made after any call keeps the right table: nothing goes stale.
"""
import jax
import jax.numpy as jnp
import numpy as np

_grid_1d: np.ndarray = np.empty(0)
_grid_jax: jax.Array | None = None
GRID = np.zeros((1, 5))


def load_lookup_table():
    global _grid_1d, _grid_jax
    table = np.linspace(0.0, 1.0, 5)  # read from a file in real code
    GRID[0, :] = table
    _grid_1d = GRID[0].copy()
    _grid_jax = jnp.asarray(_grid_1d)


@jax.jit
def lookup(i):
    grid = _grid_jax if _grid_jax is not None else jnp.asarray(_grid_1d)
    return grid[i] * 2.0


load_lookup_table()
first = lookup(2)
load_lookup_table()  # a second set-up writes the same table
second = lookup(2)
if float(first) != float(second) or float(second) != 1.0:
    print("SHARP BIT: the table changed under the trace:", first, second)
