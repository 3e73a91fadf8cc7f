"""A solver's progress `print` lives in the loop body it hands to `lax.while_loop` when `verbose` is on: the body
is traced once, so the `print` shows one tracer at trace time, not each iteration's residual (qpax-style solvers
run the body in a Python loop when verbose instead: see the clean twin).
"""
import contextlib
import io

import jax
import jax.numpy as jnp


def solve(x, verbose=False):
    def step(carry):
        i, v = carry
        if verbose:
            print("iter", i, "residual", v)  # expect: print-in-jit
        return i + 1, v / 2

    def cond(carry):
        return carry[0] < 5

    if verbose:
        out = jax.lax.while_loop(cond, step, (0, x))
    else:
        out = jax.lax.while_loop(cond, step, (0, x))
    return out[1]


if __name__ == "__main__":
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        solve(jnp.float32(1.0), verbose=True)
    if buf.getvalue().count("iter") == 1:
        print("SHARP BIT: 5 iterations, one print of a tracer:", buf.getvalue().strip())
