"""A data-parallel step under `jax.pmap` prints its per-device loss: `pmap` compiles the function, so the print
runs at trace time with a tracer, not on every step.
"""
import contextlib
import io

import jax
import jax.numpy as jnp


def step(w, x):
    loss = jnp.mean((x @ w) ** 2)
    print("device loss", loss)  # expect: print-in-jit
    return w - 0.01 * jax.grad(lambda w: jnp.mean((x @ w) ** 2))(w)


p_step = jax.pmap(step)

if __name__ == "__main__":
    n = jax.local_device_count()
    w, x = jnp.ones((n, 3)), jnp.ones((n, 4, 3))
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        for _ in range(3):
            w = p_step(w, x)
    if "Tracer" in buf.getvalue() and buf.getvalue().count("device loss") < 3:
        print("SHARP BIT: 3 steps, tracers printed at trace time only:", buf.getvalue().strip().splitlines())
