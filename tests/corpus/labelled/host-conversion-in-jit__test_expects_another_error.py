"""A test expects a `ValueError` from its input check, but the jitted lambda converts a traced value with NumPy
first: JAX raises TracerArrayConversionError, which `pytest.raises(ValueError)` does not catch, so the test fails
for a reason it does not name.
"""
import jax
import jax.numpy as jnp
import numpy as np
import pytest


def check(a):
    if a.ndim != 1:
        raise ValueError("expected a vector")
    return a


def test_rejects_matrices():
    with pytest.raises(ValueError):
        jax.jit(lambda x: check(np.asarray(x)))(jnp.ones((2, 2)))  # expect: host-conversion-in-jit


if __name__ == "__main__":
    try:
        test_rejects_matrices()
    except jax.errors.TracerArrayConversionError:
        print("SHARP BIT: TracerArrayConversionError, not the ValueError the test expects")
