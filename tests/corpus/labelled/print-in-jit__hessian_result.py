"""Sharp Bits / "Printing inside jit": printing the curvature that `jax.hessian` returned, under jit.

The Hessian computed inside the jitted Newton step is traced: `print` shows a tracer once, at
trace time, and nothing on the next steps.
"""
import contextlib
import io

import jax
import jax.numpy as jnp


def f(x):
    return jnp.sum(jnp.cosh(x))


@jax.jit
def newton_step(x):
    h = jax.hessian(f)(x)
    print("curvature", h)  # expect: print-in-jit
    return x - jnp.linalg.solve(h, jax.grad(f)(x))


if __name__ == "__main__":
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        newton_step(jnp.ones(2))
        newton_step(jnp.ones(2))
    lines = buf.getvalue().splitlines()
    if any("Trace" in line for line in lines):
        print(f"SHARP BIT: {len(lines)} line(s) printed over two calls, showing a tracer: {lines[:1]}")
