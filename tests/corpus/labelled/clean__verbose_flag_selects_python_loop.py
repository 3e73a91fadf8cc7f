"""A solver runs its step in a plain Python loop when `verbose` is on (so that it can print every iteration's
residual) and hands it to `lax.while_loop` only when it is off: the `print` in the step never runs under a trace.
A second solver's step takes `verbose` as a parameter whose default the while loop never overrides.
"""
import contextlib
import io

import jax
import jax.numpy as jnp


def solve(x, verbose=False):
    def step(carry):
        i, v = carry
        if verbose:
            print("iter", i, "residual", float(v))
        return i + 1, v / 2

    def cond(carry):
        return carry[0] < 5

    if verbose:
        out = (0, x)
        while cond(out):
            out = step(out)
    else:
        out = jax.lax.while_loop(cond, step, (0, x))
    return out[1]


def newton_step(carry, verbose=False):
    i, v = carry
    if verbose:
        print("newton", i, float(v))
    return i + 1, v - 0.5 * v


def newton(x, verbose=False):
    def cond(carry):
        return carry[0] < 4

    if verbose:
        out = (0, x)
        while cond(out):
            out = newton_step(out, verbose=True)
        return out[1]
    return jax.lax.while_loop(cond, newton_step, (0, x))[1]


if __name__ == "__main__":
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        solve(jnp.float32(1.0), verbose=True)
        solve(jnp.float32(1.0))
        newton(jnp.float32(1.0), verbose=True)
        newton(jnp.float32(1.0))
    assert buf.getvalue().count("iter") == 5 and buf.getvalue().count("newton") == 4, buf.getvalue()
