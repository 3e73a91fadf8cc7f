"""An array-namespace switch on `np.__name__` whose JAX branch is dead (gwkokab's Spence function).

The module is written for `np` being NumPy or `jax.numpy`: only when `"jax" in np.__name__` does it map the
series with `jax.vmap`. Here `np` is NumPy (`numpy.__name__ == "numpy"`), so that branch never runs, the series
only ever sees NumPy arrays, and its `np.abs` is fine (run: no error).
"""
import jax
import numpy as np


def _series(z):
    small = np.abs(z) < 0.5
    return np.where(small, z + z**2 / 4, np.log1p(np.abs(z)))


def dilog_like(z):
    if "jax" in np.__name__:
        series = jax.vmap(_series)
    else:
        series = _series
    return series(np.atleast_1d(z))


def dilog_eq(z):
    series = jax.vmap(_series) if np.__name__ == "jax.numpy" else _series
    return series(np.atleast_1d(z))


if __name__ == "__main__":
    print(dilog_like(np.array([0.1, 2.0])), dilog_eq(np.array([0.3])))
