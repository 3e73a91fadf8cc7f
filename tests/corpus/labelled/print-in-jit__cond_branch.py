"""Control-flow docs: a print in one branch of `lax.cond`.

Both branches are traced (whichever runs), so the print fires at trace time with a tracer,
whatever the predicate turns out to be.
"""
import contextlib
import io

import jax
import jax.numpy as jnp


def overflow(x):
    print("overflow, resetting", x)  # expect: print-in-jit
    return jnp.zeros_like(x)


def keep(x):
    return x


@jax.jit
def guard(x):
    return jax.lax.cond(jnp.any(x > 100.0), overflow, keep, x)

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
    show_prints(guard, jnp.ones(2))
