"""A likelihood script converts its observations with `jnp.asarray(obs, dtype="float32")`, the precision JAX
gives by default, and says so.
"""
import jax.numpy as jnp
import numpy as np


def log_likelihood(obs, mu):
    x = jnp.asarray(obs, dtype="float32")
    return -0.5 * jnp.sum((x - mu) ** 2), x.dtype


if __name__ == "__main__":
    ll, dtype = log_likelihood(np.linspace(0.0, 1.0, 5), 0.5)
    if dtype != np.float32:
        print("SHARP BIT: float32 requested, computed in", dtype)
    print(ll)
