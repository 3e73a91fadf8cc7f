"""The bug twin of clean__jax_import_with_numpy_fallback.py: the `try` imports NumPy, which is always installed
with JAX, so the `except ImportError` fallback to `jax.numpy` never runs and `jnp` is NumPy inside the jitted
function: `jnp.asarray` on a tracer raises TracerArrayConversionError.
"""
import jax

try:
    import numpy as jnp
except ImportError:
    import jax.numpy as jnp


@jax.jit
def spread(t, phi):
    a = jnp.deg2rad(jnp.asarray(phi))  # expect: host-conversion-in-jit
    return t + a


if __name__ == "__main__":
    try:
        spread(0.5, 30.0)
    except Exception as exc:  # TracerArrayConversionError
        print("SHARP BIT:", type(exc).__name__)
