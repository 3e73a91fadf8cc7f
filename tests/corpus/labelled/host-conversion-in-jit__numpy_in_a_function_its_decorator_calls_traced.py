"""The bug twin of clean__numpy_in_a_function_its_decorator_runs_as_host_callback.py: the decorator's wrapper calls
the function itself, under the outer `jax.jit`, so NumPy gets tracers: TracerArrayConversionError.
"""
import functools as ft

import jax
import jax.numpy as jnp
import numpy as onp


def as_arrays(func):
    @ft.wraps(func)
    def wrapper(*args):
        args = [jnp.asarray(a) for a in args]
        return func(*args)
    return wrapper


@jax.jit
@as_arrays
def numpy_func(x, y):
    return onp.power(x, 2) + y  # expect: host-conversion-in-jit


if __name__ == "__main__":
    try:
        numpy_func(1.0, 2.0)
    except Exception as exc:
        print("SHARP BIT:", type(exc).__name__)
