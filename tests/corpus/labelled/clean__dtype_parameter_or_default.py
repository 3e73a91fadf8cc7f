"""A jitted kernel takes an optional output dtype (`output_dtype: jnp.dtype | None = None`) and falls back to the
input's with `output_dtype or g.dtype`. jit cannot trace a dtype (passing one raises TypeError at the call, before
tracing), so the parameter holds its default here and `or` asks nothing of a tracer (round 38).
"""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=["reverse"])
def cumsum(g: jnp.ndarray, reverse: bool = False, output_dtype: jnp.dtype | None = None) -> jnp.ndarray:
    output_dtype = output_dtype or g.dtype
    out = jnp.cumsum(g[::-1])[::-1] if reverse else jnp.cumsum(g)
    return out.astype(output_dtype)


if __name__ == "__main__":
    print(cumsum(jnp.arange(4.0)), cumsum(jnp.arange(4.0), reverse=True).dtype)
