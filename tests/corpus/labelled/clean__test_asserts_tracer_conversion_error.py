"""A backend test asserts that NumPy refuses a traced value: `np.asarray(x)` inside `jax.jit` under
`pytest.raises(jax.errors.TracerArrayConversionError)` is the error the test is about, not a hazard. Outside the
`with` block the same conversion is a bug (see the labelled twin).
"""
import jax
import jax.numpy as jnp
import numpy as np
import pytest


def test_traced_values_have_no_host_copy():
    with pytest.raises(jax.errors.TracerArrayConversionError):
        jax.jit(lambda x: np.asarray(x))(jnp.arange(3.0))
    with pytest.raises(jax.errors.TracerBoolConversionError):
        jax.jit(lambda x: 1.0 if x.sum() > 0 else 0.0)(jnp.arange(3.0))


if __name__ == "__main__":
    test_traced_values_have_no_host_copy()
