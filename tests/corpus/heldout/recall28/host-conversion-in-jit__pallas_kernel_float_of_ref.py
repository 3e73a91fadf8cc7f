"""A Pallas kernel (run with `interpret=True` on CPU) that scales a block by a scalar read from a ref with
`float(s_ref[0])`: what a kernel reads from a ref is a tracer, so the conversion raises.
"""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def scale_kernel(x_ref, s_ref, o_ref):
    o_ref[...] = x_ref[...] * float(s_ref[0])  # expect: host-conversion-in-jit


def scale(x, s):
    return pl.pallas_call(scale_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x, s)


if __name__ == "__main__":
    print(scale(jnp.ones((8, 8)), jnp.array([2.0])))
