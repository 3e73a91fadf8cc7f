"""JAX PRNG docs: indexing the same element of a split key array twice is reusing that key.
"""
import jax
import jax.numpy as jnp


def init_qk(key, dim):
    keys = jax.random.split(key, 2)
    wq = jax.random.normal(keys[0], (dim, dim))
    wk = jax.random.normal(keys[0], (dim, dim))  # expect: prng-key-reuse
    return wq, wk


if __name__ == "__main__":
    wq, wk = init_qk(jax.random.PRNGKey(0), 3)
    print("SHARP BIT: query and key projections identical:", bool(jnp.all(wq == wk)))
