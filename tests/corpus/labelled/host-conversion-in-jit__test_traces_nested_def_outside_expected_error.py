"""The bug twin of clean__test_traces_nested_def_under_expected_error.py: the test traces the NumPy function
outside `pytest.raises` too, where TracerArrayConversionError fails the test.
"""
import jax
import jax.numpy as jnp
import numpy as np
import pytest


def test_numpy_inside_traced_fn():
    def residual_fn(x):
        return np.array([np.sum(np.asarray(x))])  # expect: host-conversion-in-jit

    with pytest.raises(TypeError):
        jax.make_jaxpr(residual_fn)(jnp.arange(10.0))
    return jax.make_jaxpr(residual_fn)(jnp.arange(3.0))


if __name__ == "__main__":
    try:
        test_numpy_inside_traced_fn()
    except Exception as exc:
        print("SHARP BIT:", type(exc).__name__)
