"""JAX PRNG docs, with the common alias `import jax.random as jr`.

Shuffling and then sampling the noise from the same key.
"""
import jax
import jax.numpy as jnp
import jax.random as jr


def noisy_shuffle(key, x, sigma=0.1):
    perm = jr.permutation(key, x.shape[0])
    noise = sigma * jr.normal(key, x.shape)  # expect: prng-key-reuse
    return x[perm] + noise


if __name__ == "__main__":
    jax.config.update("jax_debug_key_reuse", True)
    print(noisy_shuffle(jr.key(3), jnp.arange(6.0)))
