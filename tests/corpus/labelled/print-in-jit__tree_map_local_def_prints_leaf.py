"""A jitted step that logs every gradient leaf through a local `def` handed to `jax.tree_util.tree_map`.

The local function is called once per leaf of `grads`, at trace time: `print(g)` shows a tracer once, not the
gradients of each call. `jax.debug.print` prints the values on every call.
"""
import contextlib
import io

import jax
import jax.numpy as jnp


def loss(params, x):
    return jnp.sum((x @ params["w"]) ** 2)


@jax.jit
def step(params, x):
    grads = jax.grad(loss)(params, x)

    def show(g):
        print("grad leaf:", g)  # expect: print-in-jit
        return g

    grads = jax.tree_util.tree_map(show, grads)
    return jax.tree_util.tree_map(lambda p, g: p - 0.1 * g, params, grads)


if __name__ == "__main__":
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        step({"w": jnp.ones(2)}, jnp.ones((3, 2)))
    line = buf.getvalue().strip()
    if "Tracer" in line:
        print("SHARP BIT: a tracer was printed:", line)
