"""Bisection with `lax.while_loop`: the condition unpacks the carry and tests the width of the bracket in Python.

Every leaf of a while_loop's carry is traced, whatever the caller passed (Python floats included), so
`hi - lo > tol` is a tracer and `and` asks for its truth value: TracerBoolConversionError.
"""
import jax.numpy as jnp
from jax import lax


def bisect(f, lo, hi, tol=1e-6, max_iter=100):
    def cond(state):
        lo, hi, i = state
        return (hi - lo > tol) and (i < max_iter)  # expect: traced-control-flow

    def body(state):
        lo, hi, i = state
        mid = 0.5 * (lo + hi)
        right = f(mid) < 0
        return jnp.where(right, mid, lo), jnp.where(right, hi, mid), i + 1

    lo, hi, _ = lax.while_loop(cond, body, (lo, hi, 0))
    return 0.5 * (lo + hi)


if __name__ == "__main__":
    print(bisect(lambda x: x ** 2 - 2.0, 0.0, 2.0))
