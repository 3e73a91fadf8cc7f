"""An array-namespace switch whose branch is taken: NumPy calls on a value `jax.vmap` traces.

The test `"numpy" in np.__name__` holds for `import numpy as np`, so `_series` is mapped with `jax.vmap` and
its `np.abs` receives a tracer: TracerArrayConversionError (run: it raises).
"""
import jax
import jax.numpy as jnp
import numpy as np


def _series(z):
    small = np.abs(z) < 0.5  # expect: host-conversion-in-jit
    return jnp.where(small, z + z**2 / 4, jnp.log1p(jnp.abs(z)))


def dilog_like(z):
    if "numpy" in np.__name__:
        series = jax.vmap(_series)
    else:
        series = _series
    return series(jnp.atleast_1d(z))


if __name__ == "__main__":
    print(dilog_like(jnp.array([0.1, 2.0])))
