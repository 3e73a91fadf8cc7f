"""The twin of clean__scan_slice_optional_subtree_truth_test.py: the scan slice's entries are all arrays, and the
body branches in Python on one of them (`if q_k > 0.005:`), a tracer: TracerBoolConversionError when traced."""

import jax
import jax.numpy as jnp


def column(temperature, humidity):
    def level_step(carry, level_in):
        t_k, q_k = level_in
        out = carry + t_k
        if q_k > 0.005:  # expect: traced-control-flow
            out = out + q_k
        return out, out

    total, per_level = jax.lax.scan(level_step, jnp.zeros(()), (temperature, humidity))
    return total, per_level


if __name__ == "__main__":
    t = jnp.linspace(250.0, 290.0, 8)
    q = jnp.linspace(0.001, 0.01, 8)
    try:
        column(t, q)
    except jax.errors.TracerBoolConversionError as error:
        print("SHARP BIT:", type(error).__name__)
