"""A loss whose optional clipping is switched by a keyword bound with `functools.partial`, jitted as
`jax.jit(partial(f, cap=...))`.

The partial's keyword reaches `clipped_loss` as the Python value it was given (the jit traces only the arguments
of its own call), so `if cap is not None and cap > 0:` is decided at trace time: no error (the twin of
`traced-control-flow__jit_of_partial_keyword`).
"""
from functools import partial

import jax
import jax.numpy as jnp


def clipped_loss(w, x, cap):
    err = jnp.sum((x @ w) ** 2)
    if cap is not None and cap > 0:
        return jnp.minimum(err, cap)
    return err


loss = jax.jit(partial(clipped_loss, cap=10.0))

if __name__ == "__main__":
    print(loss(jnp.ones(2), jnp.ones((3, 2))))
