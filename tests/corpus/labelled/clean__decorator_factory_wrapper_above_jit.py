"""A logging decorator factory applied above `@jax.jit`: its wrapper runs eagerly on every call.

`@log_calls("step")` wraps the jitted function, so `print(tag, args)` runs in Python on each call with the
concrete arrays (the twin of print-in-jit__decorator_factory_wrapper_under_jit).
"""
import contextlib
import functools
import io

import jax
import jax.numpy as jnp


def log_calls(tag):
    def deco(f):
        @functools.wraps(f)
        def wrapper(*args):
            print(tag, args)
            return f(*args)
        return wrapper
    return deco


@log_calls("step")
@jax.jit
def step(x):
    return x * 2.0


if __name__ == "__main__":
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        step(jnp.ones(3))
        step(jnp.ones(3) * 2.0)
    lines = buf.getvalue().strip().splitlines()
    if len(lines) < 2 or "Tracer" in buf.getvalue():
        print("SHARP BIT: two calls logged", len(lines), "line(s):", lines)
