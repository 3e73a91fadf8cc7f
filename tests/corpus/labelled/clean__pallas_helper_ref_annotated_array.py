"""Pallas kernel helpers annotated `o_ref: jax.Array` (a common spelling in kernel libraries), reached through a
kernel factory: they store into their references with `o_ref[:] = v`, which is how a kernel writes its output.
Run in interpret mode on CPU.
"""
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def _store_scaled(o_ref: jax.Array, x: jax.Array, scale: float) -> None:
    o_ref[:] = x * scale


def make_kernel(scale):
    def kernel(x_ref, o_ref):
        _store_scaled(o_ref, x_ref[...], scale)
    return kernel


if __name__ == "__main__":
    x = jnp.arange(8.0)
    out = pl.pallas_call(make_kernel(2.0), out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), interpret=True)(x)
    print(out)
