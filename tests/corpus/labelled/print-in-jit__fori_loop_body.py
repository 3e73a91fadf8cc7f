"""Control-flow docs: printing the iterate inside a `lax.fori_loop` body.

The body is traced once; the loop counter and the carry print as tracers.
"""
import contextlib
import io

import jax
import jax.numpy as jnp


def newton_step(i, x):
    x = x - (x * x - 2.0) / (2.0 * x)
    print("iteration", i, "x =", x)  # expect: print-in-jit
    return x


def sqrt2(x0):
    return jax.lax.fori_loop(0, 5, newton_step, x0)

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
    show_prints(jax.jit(sqrt2), jnp.array(1.0))
