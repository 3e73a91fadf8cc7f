"""A typed helper outside any trace: its parameter is declared `jax.Array` and written with `x[..., 0] += bias`.
JAX arrays are immutable, so the write raises TypeError whatever JAX array the caller hands in.
"""
import jax
import jax.numpy as jnp


def add_bias(x: jax.Array, bias: float) -> jax.Array:
    x[..., 0] += bias  # expect: in-place-update
    return x


if __name__ == "__main__":
    add_bias(jnp.zeros((2, 3)), 1.0)
