"""The twin of traced-control-flow__dtype_parameter_not_static: `output_dtype` is static, so a dtype passes as a
compile-time value and `output_dtype or g.dtype` is a Python test.
"""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=["reverse", "output_dtype"])
def cumsum(g: jnp.ndarray, reverse: bool = False, output_dtype: jnp.dtype | None = None) -> jnp.ndarray:
    output_dtype = output_dtype or g.dtype
    out = jnp.cumsum(g[::-1])[::-1] if reverse else jnp.cumsum(g)
    return out.astype(output_dtype)


if __name__ == "__main__":
    print(cumsum(jnp.arange(4.0), output_dtype=jnp.float16).dtype)
