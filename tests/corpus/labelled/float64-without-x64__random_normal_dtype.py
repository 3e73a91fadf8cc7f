"""Monte Carlo samples drawn as float64 for an accurate estimate, in a script that never enables x64."""
import jax
import jax.numpy as jnp


def estimate_pi(key, n):
    xy = jax.random.uniform(key, (n, 2), dtype=jnp.float64)  # expect: float64-without-x64
    inside = jnp.sum(jnp.sum(xy ** 2, axis=1) <= 1.0)
    return 4.0 * inside / n, xy.dtype


if __name__ == "__main__":
    pi, dtype = estimate_pi(jax.random.key(0), 10_000)
    print(f"SHARP BIT: samples are {dtype}, pi ~ {pi}")
