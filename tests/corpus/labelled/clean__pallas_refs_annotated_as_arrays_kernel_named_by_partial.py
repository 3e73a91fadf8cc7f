"""A Pallas kernel bound with `functools.partial` to a name before `pl.pallas_call(call, ...)` (round 36's
flywheel-tpu): its parameters are Refs even where annotated `jax.Array`, and `stage[i] = v` inside a `fori_loop`
body of the kernel is the kernel's store into its VMEM scratch (run with `interpret=True`).
"""
import functools

import jax
import jax.numpy as jnp
from jax import lax
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def kernel(x_ref: jax.Array, o_ref: jax.Array, stage: jax.Array, *, rows: int, scale: float) -> None:
    def body(i, carry):
        stage[i] = x_ref[i] * scale
        return carry

    lax.fori_loop(0, rows, body, 0)
    o_ref[...] = stage[...]


def scaled(x):
    call = functools.partial(kernel, rows=x.shape[0], scale=2.0)
    return pl.pallas_call(call, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
                          scratch_shapes=[pltpu.VMEM(x.shape, x.dtype)], interpret=True)(x)


if __name__ == "__main__":
    print(scaled(jnp.arange(8.0).reshape(2, 4)))
