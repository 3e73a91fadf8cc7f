"""Accumulating a long sum: the script brings the JAX array to NumPy first (`np.asarray(x)`) and casts there with
`.astype(np.float64)`, which NumPy honours.
"""
import jax.numpy as jnp
import numpy as np


def total(n):
    x = jnp.full(n, 0.1)
    return np.asarray(x).astype(np.float64).sum()


if __name__ == "__main__":
    s = total(1_000_000)
    if s.dtype != np.float64:
        print("SHARP BIT: summed in", s.dtype)
    print(float(s))
