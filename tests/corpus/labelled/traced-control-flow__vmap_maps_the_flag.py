"""The twin of clean__vmap_default_past_in_axes: here `in_axes=(0, None, 0)` maps a third argument, so `clip`
is a batched tracer and `if clip:` raises TracerBoolConversionError.
"""
import jax
import jax.numpy as jnp


def value(x, field, clip=None):
    out = jnp.sum(field * x)
    if clip:  # expect: traced-control-flow
        return jnp.clip(out, -clip, clip)
    return out


value_vec = jax.vmap(value, in_axes=(0, None, 0))

if __name__ == "__main__":
    try:
        value_vec(jnp.ones((4, 3)), jnp.arange(3.0), jnp.ones(4))
    except jax.errors.TracerBoolConversionError:
        print("SHARP BIT: `if clip:` on a batched argument raises TracerBoolConversionError")
