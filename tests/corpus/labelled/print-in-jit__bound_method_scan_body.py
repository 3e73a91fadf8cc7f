"""A filter class passes its own method to `lax.scan` (`lax.scan(self._step, ...)`): the body is traced, so
`print` shows a tracer once, at trace time, not each step's state.
"""
import contextlib
import io

import jax.numpy as jnp
from jax import lax


class Filter:
    def __init__(self, alpha: float):
        self.alpha = alpha

    def _step(self, state, x):
        state = self.alpha * state + (1 - self.alpha) * x
        print("state", state)  # expect: print-in-jit
        return state, state

    def run(self, xs):
        return lax.scan(self._step, jnp.zeros(()), xs)[1]


if __name__ == "__main__":
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        Filter(0.5).run(jnp.ones(5))
    if buf.getvalue().count("state") == 1:
        print("SHARP BIT: 5 steps, one print:", buf.getvalue().strip())
