"""A jitted kernel takes an optional output dtype (`output_dtype: jnp.dtype | None = None`) that is not static:
jit cannot take a dtype argument, so a caller that passes one gets TypeError at the call, and `output_dtype or
g.dtype` only ever sees the default (round 38: ejgpu's and ejkernel's cumsum kernels). The fix is to mark it static.
"""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=["reverse"])
def cumsum(g: jnp.ndarray, reverse: bool = False, output_dtype: jnp.dtype | None = None) -> jnp.ndarray:
    output_dtype = output_dtype or g.dtype  # expect: traced-control-flow
    out = jnp.cumsum(g[::-1])[::-1] if reverse else jnp.cumsum(g)
    return out.astype(output_dtype)


if __name__ == "__main__":
    try:
        cumsum(jnp.arange(4.0), output_dtype=jnp.float16)
    except TypeError:
        print("SHARP BIT: passing output_dtype to the jitted cumsum raises TypeError (not static)")
