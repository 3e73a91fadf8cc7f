"""Accumulating a long sum: the script casts a JAX array with `.astype(np.float64)` (NumPy's dtype object) to
sum in double precision, but without x64 JAX keeps float32.
"""
import jax.numpy as jnp
import numpy as np


def total(n):
    x = jnp.full(n, 0.1)
    return x.astype(np.float64).sum()  # expect: float64-without-x64


if __name__ == "__main__":
    s = total(1_000_000)
    if s.dtype != np.float64:
        print("SHARP BIT: summed in", s.dtype, "->", float(s))
