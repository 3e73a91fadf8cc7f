"""JAX PRNG docs: distinct elements of a split key array are distinct keys; `key, *subkeys = split(...)`
followed by a loop over the subkeys uses each subkey once.
"""
import jax
import jax.numpy as jnp


def init_pair(key):
    keys = jax.random.split(key, 3)
    w = jax.random.normal(keys[0], (3, 3))
    b = jax.random.normal(keys[1], (3,))
    noise = jax.random.uniform(keys[2], (3,))
    return w, b, noise


def sample_views(key, x, n_views=3):
    key, *subkeys = jax.random.split(key, n_views + 1)
    views = [x + 0.1 * jax.random.normal(sk, x.shape) for sk in subkeys]
    return key, views


if __name__ == "__main__":
    w, b, noise = init_pair(jax.random.PRNGKey(0))
    _, views = sample_views(jax.random.PRNGKey(1), jnp.zeros(2))
    print(w.shape, b.shape, noise.shape, bool(jnp.any(views[0] != views[1])))
