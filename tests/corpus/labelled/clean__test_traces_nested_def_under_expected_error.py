"""A test that defines a function NumPy cannot trace and traces it only inside `pytest.raises` of the error that
raises (round 36's heterodyne: `pytest.raises((ConcretizationTypeError, TypeError))` around
`jax.make_jaxpr(bad_residual_fn)(x)`): the error is what the test checks.
"""
import jax
import jax.numpy as jnp
import numpy as np
import pytest


def test_numpy_inside_traced_fn_fails():
    def bad_residual_fn(x):
        return np.array([np.sum(np.asarray(x))])

    with pytest.raises((jax.errors.ConcretizationTypeError, TypeError)):
        jax.make_jaxpr(bad_residual_fn)(jnp.arange(10.0))


if __name__ == "__main__":
    test_numpy_inside_traced_fn_fails()
    print("raised, as the test expects")
