"""A jitted method that lists the occupied cells of a board with `jnp.argwhere`.

Under `jax.jit` the board is traced, so the number of occupied cells is unknown: ConcretizationTypeError.
Use `jnp.argwhere(board, size=board.size, fill_value=-1)`.
"""
from functools import partial

import jax
import jax.numpy as jnp


class Board:
    @partial(jax.jit, static_argnums=0)
    def occupied(self, board):
        return jnp.argwhere(board != 0)  # expect: dynamic-shape


if __name__ == "__main__":
    print(Board().occupied(jnp.array([[0, 1], [2, 0]])))
