"""The twin of clean__dtype_parameter_or_default: `factor` has no dtype annotation and the caller passes an
array, so `factor or 2.0` asks a tracer for its truth value: TracerBoolConversionError.
"""
import jax
import jax.numpy as jnp


@jax.jit
def scale(g, factor=None):
    factor = factor or 2.0  # expect: traced-control-flow
    return g * factor


if __name__ == "__main__":
    try:
        scale(jnp.arange(4.0), jnp.float32(3.0))
    except jax.errors.TracerBoolConversionError:
        print("SHARP BIT: `factor or 2.0` on a traced factor raises TracerBoolConversionError")
