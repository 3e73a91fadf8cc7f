"""JAX PRNG docs: rebinding the name to a derived key before the next draw is not reuse.
"""
import jax
import jax.numpy as jnp


def two_views(key, x):
    view_a = x + 0.1 * jax.random.normal(key, x.shape)
    key = jax.random.fold_in(key, 1)
    view_b = x + 0.1 * jax.random.normal(key, x.shape)
    return view_a, view_b


if __name__ == "__main__":
    a, b = two_views(jax.random.PRNGKey(0), jnp.zeros(3))
    print(a, b, bool(jnp.any(a != b)))
