"""Sharp Bits / "Printing inside jit": a debugging helper called from a jitted model.

The helper runs under the caller's trace; its print shows tracers once.
"""
import contextlib
import io

import jax
import jax.numpy as jnp


def debug_stats(name, a):
    print(name, a.min(), a.max())  # expect: print-in-jit
    return a


@jax.jit
def forward(w, x):
    h = debug_stats("hidden", jnp.tanh(x @ w))
    return h.sum()

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
    show_prints(forward, jnp.ones((2, 2)), jnp.ones((3, 2)))
