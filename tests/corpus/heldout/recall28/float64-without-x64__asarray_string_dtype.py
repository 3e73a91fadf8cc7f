"""A likelihood script converts its observations with `jnp.asarray(obs, dtype="float64")` (a string dtype) and
never enables x64: the data silently become float32.
"""
import jax.numpy as jnp
import numpy as np


def log_likelihood(obs, mu):
    x = jnp.asarray(obs, dtype="float64")  # expect: float64-without-x64
    return -0.5 * jnp.sum((x - mu) ** 2), x.dtype


if __name__ == "__main__":
    ll, dtype = log_likelihood(np.linspace(0.0, 1.0, 5), 0.5)
    if dtype != np.float64:
        print("SHARP BIT: float64 requested, computed in", dtype)
