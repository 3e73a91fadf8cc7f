"""Sharp Bits / "Printing inside jit": an f-string debug line in a function jitted with a static argument.

The static `step` prints fine, but `{x.mean()}` formats a tracer at trace time, once;
`jax.debug.print("step {}: mean={}", step, x.mean())` prints the values on every call.
"""
import contextlib
import io
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames="step")
def update(x, step):
    x = x * 0.9
    print(f"step {step}: mean={x.mean()}")  # expect: print-in-jit
    return x

def show_prints(fn, *args):
    """Calls `fn` twice and shows what `print` wrote: a tracer, at trace time only."""
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        fn(*args)
        fn(*args)
    lines = buf.getvalue().splitlines()
    traced = [line for line in lines if "Trace" in line]
    print(f"SHARP BIT: {len(lines)} line(s) printed over two calls, {len(traced)} showing a tracer: {lines[:1]}")


if __name__ == "__main__":
    show_prints(partial(update, step=1), jnp.arange(3.0))
