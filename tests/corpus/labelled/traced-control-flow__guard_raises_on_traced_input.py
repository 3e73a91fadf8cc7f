"""The bug beside `clean__guard_refuses_optional_argument`: a guard that raises on a value of the input itself.

`if jnp.any(x < 0): raise ValueError(...)` under jit tests a traced array: every call raises
TracerBoolConversionError, valid input included (use `checkify` or `jnp.where`).
"""
import jax
import jax.numpy as jnp


@jax.jit
def safe_sqrt(x):
    if jnp.any(x < 0):  # expect: traced-control-flow
        raise ValueError("negative input")
    return jnp.sqrt(x)


if __name__ == "__main__":
    print(safe_sqrt(jnp.array([1.0, 4.0])))
