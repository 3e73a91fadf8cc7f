"""A logging decorator factory `@log_output("loss")` stacked under `@jax.jit`: the wrapper prints the wrapped
function's result, which is a tracer at trace time, and it prints once only, on the first call.
"""
import contextlib
import functools
import io

import jax
import jax.numpy as jnp


def log_output(tag):
    def decorate(fn):
        @functools.wraps(fn)
        def wrapper(*args):
            out = fn(*args)
            print(tag, out)  # expect: print-in-jit
            return out
        return wrapper
    return decorate


@jax.jit
@log_output("loss")
def mse(pred, y):
    return jnp.mean((pred - y) ** 2)


if __name__ == "__main__":
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        mse(jnp.ones(3), jnp.zeros(3))
        mse(jnp.ones(3), jnp.ones(3))
    if "Tracer" in buf.getvalue() and buf.getvalue().count("loss") == 1:
        print("SHARP BIT: one line for two calls:", buf.getvalue().strip())
