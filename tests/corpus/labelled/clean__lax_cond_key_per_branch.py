"""JAX PRNG docs / control flow: each `lax.cond` branch consumes the key once; only one branch runs.
"""
import jax
import jax.numpy as jnp
from jax import lax


def gaussian(key):
    return jax.random.normal(key, (3,))


def uniform(key):
    return jax.random.uniform(key, (3,), minval=-1.0, maxval=1.0)


@jax.jit
def init_weights(key, use_gaussian):
    return lax.cond(use_gaussian, gaussian, uniform, key)


if __name__ == "__main__":
    k1, k2 = jax.random.split(jax.random.PRNGKey(0))
    print(init_weights(k1, True), init_weights(k2, jnp.array(False)))
