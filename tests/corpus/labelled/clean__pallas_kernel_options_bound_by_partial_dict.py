"""A Pallas matmul kernel takes a Python flag after its refs, bound with `functools.partial(kernel, **options)`
from a dict of the jitted caller's static arguments: inside the kernel (and the `fori_loop` body it defines)
`trans_rhs` is a Python bool, so `if not trans_rhs:` picks a branch at trace time. Run in interpret mode on CPU.
"""
from functools import partial

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl


def kernel(x_ref, w_ref, o_ref, trans_rhs: bool):
    def accumulate(i, acc):
        if not trans_rhs:
            return acc + x_ref[...] @ w_ref[...]
        return acc + x_ref[...] @ w_ref[...].T
    o_ref[...] = jax.lax.fori_loop(0, 2, accumulate, jnp.zeros(o_ref.shape, o_ref.dtype))


@partial(jax.jit, static_argnums=(2,))
def matmul(x, w, trans_rhs):
    options = {"trans_rhs": trans_rhs}
    return pl.pallas_call(partial(kernel, **options), out_shape=jax.ShapeDtypeStruct((8, 8), x.dtype),
                          interpret=True)(x, w)


if __name__ == "__main__":
    print(matmul(jnp.ones((8, 8)), jnp.ones((8, 8)), False)[0, 0])
