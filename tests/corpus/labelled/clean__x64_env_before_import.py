"""x64 enabled through the environment before JAX is imported."""
import os

os.environ["JAX_ENABLE_X64"] = "1"

import jax.numpy as jnp


if __name__ == "__main__":
    x = jnp.zeros(3, dtype=jnp.float64)
    assert x.dtype == jnp.float64, x.dtype
    print(x.dtype)
