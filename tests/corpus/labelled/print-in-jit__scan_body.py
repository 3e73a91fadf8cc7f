"""Control-flow docs: `print` inside a `lax.scan` body to watch the carry.

The body is traced once, so the print shows one tracer, not one value per step.
"""
import contextlib
import io

import jax
import jax.numpy as jnp


def cumulative(carry, x):
    carry = carry + x
    print("carry", carry)  # expect: print-in-jit
    return carry, carry


def run(xs):
    return jax.lax.scan(cumulative, 0.0, xs)

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
    show_prints(jax.jit(run), jnp.arange(4.0))
