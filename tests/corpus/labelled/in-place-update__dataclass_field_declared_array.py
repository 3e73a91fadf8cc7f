"""A dataclass holding a `jnp` grid; `paint` writes one cell in place.

`self.cells[i, j] = value` raises TypeError: JAX arrays are immutable.
"""
from dataclasses import dataclass, field

import jax
import jax.numpy as jnp


@dataclass
class Grid:
    cells: jax.Array = field(default_factory=lambda: jnp.zeros((8, 8)))

    def paint(self, i, j, value=1.0):
        self.cells[i, j] = value  # expect: in-place-update
        return self


if __name__ == "__main__":
    g = Grid()
    g.paint(2, 3)
    print(g.cells.sum())
