"""A host conversion that the code expects to fail under a trace: `try: same = bool(np.allclose(np.asarray(a),
np.asarray(b))) except Exception: same = False` (jax-numerical-operators' trajectory resampler). Under `jit` the
conversion raises TracerArrayConversionError (a TypeError), the handler takes the general path: nothing escapes."""
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def resample(save_ts, grid_ts, ys):
    try:
        same = save_ts.shape == grid_ts.shape and bool(np.allclose(np.asarray(save_ts), np.asarray(grid_ts)))
    except Exception:  # traced: cannot compare values, take the general path
        same = False
    if same:
        return ys
    return jnp.interp(save_ts, grid_ts, ys)


print(resample(jnp.linspace(0, 1, 5), jnp.linspace(0, 1, 5), jnp.arange(5.0)))
