"""Sharp Bits: "In-place updates" with `@partial(jax.jit, static_argnums=1)`.

`n` is static (a Python int), but `signal` is traced: slicing assignment still raises TypeError.
"""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=1)
def zero_pad_tail(signal, n):
    signal[-n:] = 0.0  # expect: in-place-update
    return signal


if __name__ == "__main__":
    print(zero_pad_tail(jnp.arange(8.0), 3))
