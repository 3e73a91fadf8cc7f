"""NumPy in a function whose decorator hands it to `jax.pure_callback` (round 36's finitediffx): the jitted wrapper
is traced, but the decorated body runs on the host with concrete NumPy arrays, so `onp.power` is fine.
"""
import functools as ft

import jax
import jax.numpy as jnp
import numpy as onp


def wrap_pure_callback(func):
    @ft.wraps(func)
    def wrapper(*args):
        args = [jnp.asarray(a) for a in args]
        shape = jax.ShapeDtypeStruct(jnp.broadcast_shapes(*[a.shape for a in args]), args[0].dtype)
        func_ = lambda *a: func(*a).astype(a[0].dtype)
        return jax.pure_callback(func_, shape, *args)
    return wrapper


@jax.jit
@wrap_pure_callback
def numpy_func(x, y):
    return onp.power(x, 2) + onp.power(y, 2)


if __name__ == "__main__":
    print("on the host:", numpy_func(1.0, 2.0))
