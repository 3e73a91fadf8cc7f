"""JAX PRNG docs: a key closed over by a vmapped function is the same for every example.

Every image in the batch gets exactly the same "random" noise.
"""
import jax
import jax.numpy as jnp


def add_noise(key, images, sigma=0.1):
    return jax.vmap(lambda img: img + sigma * jax.random.normal(key, img.shape))(images)  # expect: prng-key-reuse


if __name__ == "__main__":
    noisy = add_noise(jax.random.PRNGKey(0), jnp.zeros((3, 2, 2)))
    print("SHARP BIT: same noise for every example:", bool(jnp.all(noisy[0] == noisy[1])))
