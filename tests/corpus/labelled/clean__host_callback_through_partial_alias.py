"""A host function handed to a `functools.partial` of `jax.pure_callback` kept under another name.

agjax fixes the callback's batching keyword once, in both arms of a version test
(`callback_sequential = functools.partial(jax.pure_callback, vmap_method="sequential")`), and then calls
`callback_sequential(make_vjp, shapes, *args)` inside a traced function; `make_vjp` sets a `nonlocal` stage.
The function given to the alias runs on the host on every call, so the stage is set again after each reset
(run: "ran" after every one of 3 calls, each after a reset to "idle").
"""
import functools

import jax
import jax.numpy as jnp
import numpy as np

if hasattr(jax, "pure_callback"):
    host_call = functools.partial(jax.pure_callback, vmap_method="sequential")
else:
    host_call = functools.partial(jax.pure_callback, vectorized=False)


def staged(fn):
    stage = "idle"

    @jax.jit
    def wrapped(x):
        def host_fn(x):
            nonlocal stage
            stage = "ran"
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
        assert stage() == "ran"
