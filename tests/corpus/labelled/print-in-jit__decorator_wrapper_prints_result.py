"""A decorator prints what the function it wraps returns; `@jax.jit` sits above it, so jit traces the wrapper and
the `print` shows a tracer once, at trace time, instead of each call's result.
"""
import contextlib
import io

import jax
import jax.numpy as jnp


def show(fn):
    def wrapper(x):
        y = fn(x)
        print("result", y)  # expect: print-in-jit
        return y
    return wrapper


@jax.jit
@show
def double(x):
    return 2 * x


if __name__ == "__main__":
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        double(jnp.ones(2))
        double(jnp.ones(2) * 3)
    if "Trace" in buf.getvalue() and buf.getvalue().count("result") == 1:
        print("SHARP BIT: one line for two calls:", buf.getvalue().strip())
