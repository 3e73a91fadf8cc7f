"""Sharp Bits / "Control flow": `scale or default` on an optional array argument of a jitted function.

`scale: jax.Array | None` is an array when given, and under `@jax.jit` an abstract tracer: `or` asks for its
truth value and raises TracerBoolConversionError. (`scale if scale is not None else ...` is the fix.)
"""
import jax
import jax.numpy as jnp


@jax.jit
def scaled(x, scale: jax.Array | None = None):
    scale = scale or jnp.asarray(1.0)  # expect: traced-control-flow
    return x * scale


if __name__ == "__main__":
    print(scaled(jnp.arange(3.0), jnp.asarray(2.0)))
