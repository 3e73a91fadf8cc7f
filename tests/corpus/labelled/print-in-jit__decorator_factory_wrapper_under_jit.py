"""A logging decorator factory applied below `@jax.jit`: jit traces the factory's wrapper.

`@jax.jit` wraps what `@log_calls("step")` returns, the `wrapper` defined inside the factory's decorator, so
`print(tag, args)` runs once, at trace time, and shows tracers instead of the arguments of each call.
Put the decorator above `@jax.jit` to log every call's values (see clean__decorator_factory_wrapper_above_jit),
or use `jax.debug.print`.
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
            print(tag, args)  # expect: print-in-jit
            return f(*args)
        return wrapper
    return deco


@jax.jit
@log_calls("step")
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
