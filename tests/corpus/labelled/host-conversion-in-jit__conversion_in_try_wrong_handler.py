"""The same resampler with a handler that catches only ValueError: TracerArrayConversionError is a TypeError, so
it escapes the `try` and the jitted call fails."""
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def resample(save_ts, grid_ts, ys):
    try:
        same = bool(np.allclose(np.asarray(save_ts), grid_ts))  # expect: host-conversion-in-jit
    except ValueError:
        same = False
    if same:
        return ys
    return jnp.interp(save_ts, grid_ts, ys)


print(resample(jnp.linspace(0, 1, 5), jnp.linspace(0, 1, 5), jnp.arange(5.0)))
