"""Sharp Bits / "Control flow": a Python `if` on a jitted function's array argument.

The argument is an abstract tracer under `@jax.jit`; `x > 0` has no truth value: TracerBoolConversionError.
"""
import jax
import jax.numpy as jnp


@jax.jit
def safe_log(x):
    if x > 0:  # expect: traced-control-flow
        return jnp.log(x)
    return jnp.zeros_like(x)


if __name__ == "__main__":
    print(safe_log(2.0))
