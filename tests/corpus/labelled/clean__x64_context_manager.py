"""64-bit work scoped with the `jax.enable_x64` context (jax.experimental.enable_x64 in older releases)."""
import jax
import jax.numpy as jnp


if __name__ == "__main__":
    with jax.enable_x64(True):
        x = jnp.arange(3, dtype=jnp.int64)
        assert x.dtype == jnp.int64, x.dtype
    print(x.dtype)
