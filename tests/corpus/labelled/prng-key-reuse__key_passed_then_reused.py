"""JAX PRNG docs: passing a key to a function consumes it; using it again afterwards is reuse.

`init_params` draws with `key`; the dropout mask below is drawn from the same key.
"""
import jax
import jax.numpy as jnp


def init_params(key, sizes):
    keys = jax.random.split(key, len(sizes) - 1)
    return [jax.random.normal(k, (m, n)) * 0.1 for k, m, n in zip(keys, sizes[:-1], sizes[1:])]


def setup(seed=0):
    key = jax.random.PRNGKey(seed)
    params = init_params(key, [4, 8, 2])
    first = jax.random.split(key, 2)[0]  # expect: prng-key-reuse
    mask = jax.random.bernoulli(first, 0.5, (8,))
    return params, mask, first


if __name__ == "__main__":
    params, mask, first = setup()
    again = jax.random.split(jax.random.PRNGKey(0), 2)[0]
    print("SHARP BIT: mask key equals the first layer's key:", bool(jnp.all(first == again)))
