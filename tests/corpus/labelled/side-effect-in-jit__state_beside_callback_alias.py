"""A stage set by the traced function that calls a `functools.partial` of `jax.pure_callback`.

The twin of clean__host_callback_through_partial_alias.py: the host function is handed to the callback
alias, but the `nonlocal` stage is set by the jitted function around it, which runs once, at trace time:
after a reset, later calls leave it "idle".
"""
import functools

import jax
import jax.numpy as jnp
import numpy as np

host_call = functools.partial(jax.pure_callback, vmap_method="sequential")


def staged(fn):
    stage = "idle"

    @jax.jit
    def wrapped(x):
        nonlocal stage
        stage = "ran"  # expect: side-effect-in-jit

        def host_fn(x):
            return np.asarray(fn(x), dtype=np.float32)

        return host_call(host_fn, jax.ShapeDtypeStruct(x.shape, jnp.float32), x)

    def reset():
        nonlocal stage
        stage = "idle"

    return wrapped, reset, lambda: stage


if __name__ == "__main__":
    f, reset, stage = staged(np.sin)
    for v in (1.0, 2.0, 3.0):
        reset()
        f(jnp.full(3, v))
        print("stage after the call:", stage())
    if stage() != "ran":
        print("SHARP BIT: the stage was set once, at trace time")
