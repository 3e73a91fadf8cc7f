"""A Pallas kernel (run with `interpret=True` on CPU) that scales a block by a scalar read from a ref, used as
an array: `x_ref[...] * s_ref[0]` stays in the kernel.
"""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def scale_kernel(x_ref, s_ref, o_ref):
    o_ref[...] = x_ref[...] * s_ref[0]


def scale(x, s):
    return pl.pallas_call(scale_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x, s)


if __name__ == "__main__":
    print(scale(jnp.ones((8, 8)), jnp.array([2.0])))
