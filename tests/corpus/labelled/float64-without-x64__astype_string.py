"""Casting a loss to "float64" for an accurate running sum, in a training script without x64."""
import jax
import jax.numpy as jnp


@jax.jit
def loss(w, x):
    return jnp.mean((x @ w) ** 2)


if __name__ == "__main__":
    w, x = jnp.ones(3), jnp.ones((4, 3))
    total = loss(w, x).astype("float64")  # expect: float64-without-x64
    print(f"SHARP BIT: running sum is {total.dtype}")
