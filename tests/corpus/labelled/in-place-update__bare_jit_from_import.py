"""Sharp Bits: "In-place updates" with a bare `@jit` (`from jax import jit`).

A shift-by-one written NumPy style on a freshly built `jnp.zeros_like` array.
"""
import jax.numpy as jnp
from jax import jit


@jit
def shift_right(x):
    out = jnp.zeros_like(x)
    out[1:] = x[:-1]  # expect: in-place-update
    return out


if __name__ == "__main__":
    print(shift_right(jnp.arange(5.0)))
