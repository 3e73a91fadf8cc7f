"""Sharp Bits / "Printing inside jit": the loss that `jax.value_and_grad` returns, printed in a jitted step.

The result of a transformation called inside traced code is itself traced: `print` shows
`Traced<ShapedArray(float32[])>` once, while tracing, and nothing on later steps.
"""
import contextlib
import io

import jax
import jax.numpy as jnp


def loss_fn(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


@jax.jit
def train_step(w, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(w, x, y)
    print("loss", loss)  # expect: print-in-jit
    return w - 0.1 * grads


def show_prints(fn, *args):
    """Calls `fn` twice and shows what `print` wrote: a tracer, at trace time only."""
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        fn(*args)
        fn(*args)
    lines = buf.getvalue().splitlines()
    traced = [line for line in lines if "Trace" in line]
    if traced:
        print(f"SHARP BIT: {len(lines)} line(s) printed over two calls, {len(traced)} showing a tracer: {lines[:1]}")


if __name__ == "__main__":
    show_prints(train_step, jnp.ones(2), jnp.ones((4, 2)), jnp.zeros(4))
