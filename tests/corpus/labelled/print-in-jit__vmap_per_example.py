"""vmap docs: printing a per-example value inside a function mapped with `jax.vmap`.

Under vmap the value is a batched tracer; print shows the tracer, not the examples.
"""
import contextlib
import io

import jax
import jax.numpy as jnp


@jax.vmap
def per_example_norm(v):
    n = jnp.linalg.norm(v)
    print(n)  # expect: print-in-jit
    return v / n

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
    show_prints(jax.jit(per_example_norm), jnp.ones((3, 2)))
