"""A layer object is handed to a jitted forward pass (a static argument) and called there: its `__call__` runs
under the trace, so the `print` in it shows a tracer once, at trace time, and nothing on later calls
(held-out set recall24: an Equinox module printing its activations under `eqx.filter_jit`).
"""
import contextlib
import functools
import io

import jax
import jax.numpy as jnp


class Block:
    def __init__(self, scale):
        self.scale = scale

    def __call__(self, x):
        h = jnp.tanh(self.scale * x)
        print("hidden", h)  # expect: print-in-jit
        return h


@functools.partial(jax.jit, static_argnums=0)
def forward(block, x):
    return block(x) + 1.0


if __name__ == "__main__":
    block = Block(2.0)
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        for _ in range(3):
            forward(block, jnp.ones(3))
    out = buf.getvalue()
    if out.count("hidden") < 3 or "Trace" in out:
        print("SHARP BIT: 3 calls printed", repr(out[:60]))
