"""Sharp Bits / "Printing inside jit": the loss of `jax.value_and_grad(..., has_aux=True)`, unpacked as
`(loss, aux), grads = ...` (the most common training-step spelling), printed in a jitted step.

With `has_aux=True` the transformed function returns `((value, aux), grads)`: `loss` is the differentiated
function's value, a tracer inside the jitted step. `print` shows it once, at trace time.
"""
import contextlib
import io

import jax
import jax.numpy as jnp


def loss_fn(w, x, y):
    pred = x @ w
    return jnp.mean((pred - y) ** 2), pred


@jax.jit
def train_step(w, x, y):
    (loss, pred), grads = jax.value_and_grad(loss_fn, has_aux=True)(w, x, y)
    print("loss", loss)  # expect: print-in-jit
    return w - 0.1 * grads, pred


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
