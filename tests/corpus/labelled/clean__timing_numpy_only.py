"""Timing NumPy code: NumPy computes synchronously, so stopping the clock right after the call is correct,
even in a module that also uses JAX.
"""
import time

import jax.numpy as jnp
import numpy as np

if __name__ == "__main__":
    a = np.ones((500, 500))
    start = time.perf_counter()
    b = a @ a
    elapsed = time.perf_counter() - start
    print(f"numpy matmul: {elapsed:.4f} s", b.shape, jnp.asarray(b).shape)
