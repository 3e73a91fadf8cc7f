"""Allocating a buffer with one row per selected particle inside `jit`.

`n` is a traced count, so `jnp.zeros((n, 3))` raises TypeError (shapes must be concrete). Allocate the maximum
size and mask it instead.
"""
import jax
import jax.numpy as jnp


@jax.jit
def selected_positions(positions, alive):
    n = jnp.sum(alive)
    buffer = jnp.zeros((n, 3))  # expect: dynamic-shape
    return buffer


if __name__ == "__main__":
    pos = jnp.ones((5, 3))
    print(selected_positions(pos, jnp.array([True, False, True, True, False])))
