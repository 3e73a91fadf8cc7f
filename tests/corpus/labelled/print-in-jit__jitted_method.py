"""JIT docs "static self": printing the activations in a method jitted with `self` static.

`self` is static, `x` is traced: the print shows a tracer once.
"""
import contextlib
import io
from functools import partial

import jax
import jax.numpy as jnp


class Layer:
    def __init__(self, scale):
        self.scale = scale

    @partial(jax.jit, static_argnums=0)
    def __call__(self, x):
        y = jnp.tanh(x) * self.scale
        print("activations:", y, "scale:", self.scale)  # expect: print-in-jit
        return y

    def __hash__(self):
        return hash(self.scale)

    def __eq__(self, other):
        return isinstance(other, Layer) and other.scale == self.scale

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
    show_prints(Layer(2.0), jnp.ones(3))
