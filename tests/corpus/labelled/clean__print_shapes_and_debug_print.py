"""Sharp Bits / "Printing inside jit": what may be printed while tracing, and jax.debug.print for values.

Shapes, dtypes and static arguments are Python values at trace time; values go through jax.debug.print.
"""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames="name")
def layer(x, w, name):
    print(f"tracing {name}: x {x.shape} {x.dtype}, w {w.shape}, rank {x.ndim}")
    y = jnp.tanh(x @ w)
    jax.debug.print("{name} mean={m:.3f}", name=name, m=y.mean())
    return y


if __name__ == "__main__":
    out = layer(jnp.ones((2, 3)), jnp.ones((3, 4)), name="dense")
    print("eager result:", out)
