"""A package that turns x64 on at import through its own set-up function (jaxvacua's `set_precision(default)`,
called at module level with the mode from an environment variable): whichever branch it takes by default, the
flag may be on, and `jnp.float64` is then 64-bit."""
import os

import jax
import jax.numpy as jnp


def set_precision(mode="float64"):
    if mode == "float64":
        jax.config.update("jax_enable_x64", True)
    else:
        jax.config.update("jax_enable_x64", False)


set_precision(os.environ.get("PRECISION", "float64"))

flux = jnp.array([2, -1, 3]).astype(jnp.float64)
print(flux.dtype)
