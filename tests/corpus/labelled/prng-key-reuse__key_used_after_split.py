"""JAX PRNG docs ("jax.random" / key reuse): a key that has been split must not be used again.

`jax.random.key` (typed key): `jax_debug_key_reuse` raises KeyReuseError on the second use.
"""
import jax


def sample_batch(key, n):
    k_noise, k_perm = jax.random.split(key)
    noise = jax.random.normal(k_noise, (n, 2))
    order = jax.random.permutation(k_perm, n)
    extra = jax.random.uniform(key, (n,))  # expect: prng-key-reuse
    return noise[order], extra


if __name__ == "__main__":
    jax.config.update("jax_debug_key_reuse", True)
    print(sample_batch(jax.random.key(0), 4))
