"""A tolerance written as `jnp.float64(1e-12)`: without x64 it is a float32 (and 1e-12 is below float32's eps)."""
import jax.numpy as jnp


def converged(a, b):
    tol = jnp.float64(1e-12)  # expect: float64-without-x64
    return jnp.abs(a - b) < tol, tol


if __name__ == "__main__":
    done, tol = converged(jnp.array(1.0), jnp.array(1.0 + 1e-9))
    print(f"SHARP BIT: tolerance dtype {tol.dtype}, converged={done}")
