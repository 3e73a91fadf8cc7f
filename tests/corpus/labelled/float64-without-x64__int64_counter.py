"""Event counts kept as int64 to avoid overflow; without x64 JAX gives int32, which overflows past 2**31."""
import jax.numpy as jnp


def count_events(times):
    return jnp.cumsum(jnp.ones_like(times, dtype=jnp.int64))  # expect: float64-without-x64


if __name__ == "__main__":
    counts = count_events(jnp.arange(5.0))
    print(f"SHARP BIT: counts are {counts.dtype}")
