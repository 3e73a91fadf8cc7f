"""Autodiff cookbook: `np.clip` on the differentiated argument under `jax.grad` alone.

`jax.grad` runs on concrete values (a Python `if` would work), but its tracers still refuse NumPy:
TracerArrayConversionError.
"""
import jax
import numpy as np


def clipped_loss(w):
    w = np.clip(w, -1.0, 1.0)  # expect: host-conversion-in-jit
    return (w ** 2).sum()


if __name__ == "__main__":
    print(jax.grad(clipped_loss)(jax.numpy.array([0.5, 2.0])))
