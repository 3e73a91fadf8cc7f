"""A Pallas kernel whose options come through `functools.partial(kernel, **options)` also branches on a value it
reads from an input ref: the options are Python values, the ref's contents are traced, so `if scale_ref[0] > 0:`
raises TracerBoolConversionError when the kernel is traced (interpret mode on CPU shows it too).
"""
from functools import partial

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def kernel(x_ref, scale_ref, o_ref, trans: bool):
    x = x_ref[...].T if trans else x_ref[...]
    if scale_ref[0] > 0:  # expect: traced-control-flow
        o_ref[...] = x * scale_ref[0]
    else:
        o_ref[...] = x


@partial(jax.jit, static_argnums=(2,))
def scaled(x, scale, trans):
    options = {"trans": trans}
    return pl.pallas_call(partial(kernel, **options), out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
                          interpret=True)(x, scale)


if __name__ == "__main__":
    try:
        scaled(jnp.ones((8, 8)), jnp.ones((1,)), False)
    except jax.errors.TracerBoolConversionError:
        print("SHARP BIT: `if` on a value read from a ref inside a Pallas kernel")
