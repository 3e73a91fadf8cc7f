"""Sharp Bits: "Pure functions": a NumPy global filled in place after the jitted function was traced.

`MEAN[:] = ...` is a legal NumPy update (not a JAX in-place bug), but `standardize` baked in the zeros.
"""
import jax
import jax.numpy as jnp
import numpy as np

MEAN = np.zeros(3, dtype=np.float32)


@jax.jit
def standardize(x):
    return x - MEAN  # expect: global-captured-in-jit


def fit(data):
    MEAN[:] = data.mean(axis=0)


if __name__ == "__main__":
    data = np.ones((10, 3), dtype=np.float32)
    print(standardize(jnp.asarray(data[0])))
    fit(data)
    print("SHARP BIT: not centred:", standardize(jnp.asarray(data[0])))
