"""JAX PRNG docs: a key reused inside a list comprehension draws the same numbers every time.

The "ensemble" of four initialisations is four copies of one.
"""
import jax
import jax.numpy as jnp


def init_ensemble(key, n_members, shape):
    return [jax.random.normal(key, shape) for _ in range(n_members)]  # expect: prng-key-reuse


if __name__ == "__main__":
    members = init_ensemble(jax.random.PRNGKey(0), 4, (3,))
    print("SHARP BIT: all members identical:", all(bool(jnp.all(m == members[0])) for m in members))
