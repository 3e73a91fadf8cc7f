"""JAX PRNG docs with new-style typed keys (`jax.random.key`): one key, two samplers.

`jax_debug_key_reuse` raises KeyReuseError; without it the two draws are correlated.
"""
import jax
import jax.numpy as jnp


def augment(key, images):
    flip = jax.random.bernoulli(key, 0.5, (images.shape[0],))
    shift = jax.random.randint(key, (images.shape[0],), -2, 3)  # expect: prng-key-reuse
    flipped = jnp.where(flip[:, None, None], images[:, :, ::-1], images)
    return jax.vmap(lambda img, s: jnp.roll(img, s, axis=1))(flipped, shift)


if __name__ == "__main__":
    jax.config.update("jax_debug_key_reuse", True)
    print(augment(jax.random.key(0), jnp.ones((2, 4, 4))).shape)
