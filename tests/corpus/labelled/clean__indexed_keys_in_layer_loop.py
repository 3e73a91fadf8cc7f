"""JAX PRNG docs: split once into an array of keys and index it inside the init loop.
"""
import jax
import jax.numpy as jnp

SIZES = (4, 16, 16, 2)


def init(key, sizes=SIZES):
    keys = jax.random.split(key, len(sizes) - 1)
    params = []
    for i, (m, n) in enumerate(zip(sizes[:-1], sizes[1:])):
        w = jax.random.normal(keys[i], (m, n)) * jnp.sqrt(2.0 / m)
        params.append((w, jnp.zeros(n)))
    return params


if __name__ == "__main__":
    params = init(jax.random.PRNGKey(0))
    print([w.shape for w, _ in params], bool(jnp.any(params[1][0][:, :2] != params[2][0])))
