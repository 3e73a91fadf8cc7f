"""Sharp Bits: "Pure functions": a global decided once at import time (two assignments in try/except and
if/else branches, never changed afterwards) is a constant for jit.
"""
import sys

import jax
import jax.numpy as jnp

try:
    import scipy  # optional dependency

    HAS_SCIPY = True
except ImportError:
    HAS_SCIPY = False

if sys.platform == "win32":
    EPS = 1e-6
else:
    EPS = 1e-7


@jax.jit
def safe_log(x):
    if HAS_SCIPY:
        return jax.scipy.special.xlogy(x, x + EPS) / jnp.maximum(x, EPS)
    return jnp.log(x + EPS)


if __name__ == "__main__":
    print(safe_log(jnp.array([0.0, 1.0, 2.0])))
