"""`lax.convert_element_type(x, jnp.float64)` before an accumulation, in a program without x64."""
import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def accurate_sum(x):
    wide = lax.convert_element_type(x, jnp.float64)  # expect: float64-without-x64
    return jnp.sum(wide)


if __name__ == "__main__":
    total = accurate_sum(jnp.full(1000, 0.1))
    print(f"SHARP BIT: the sum is {total.dtype}")
