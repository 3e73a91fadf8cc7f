"""Sharp Bits / "Double (64bit) precision": a script asks for float64 without enabling x64.

JAX silently gives float32 (its UserWarning points into JAX's source).
"""
import jax.numpy as jnp


def integrate(n):
    x = jnp.linspace(0.0, 1.0, n, dtype=jnp.float64)  # expect: float64-without-x64
    return jnp.trapezoid(x ** 2, x)


if __name__ == "__main__":
    x = jnp.linspace(0.0, 1.0, 11, dtype=jnp.float64)  # expect: float64-without-x64
    print(f"SHARP BIT: asked for float64, got {x.dtype}" if x.dtype != jnp.float64 else "float64")
    print(integrate(1001))
