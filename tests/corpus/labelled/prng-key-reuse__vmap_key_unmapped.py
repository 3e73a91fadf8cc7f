"""Augmenting a batch with `jax.vmap(augment, in_axes=(0, None))(images, key)`: the key is broadcast.

Every image gets the same noise, because every example draws from the one key.
"""
import jax
import jax.numpy as jnp


def augment(image, key):
    noise = 0.1 * jax.random.normal(key, image.shape)
    return image + noise


def augment_batch(images, key):
    return jax.vmap(augment, in_axes=(0, None))(images, key)  # expect: prng-key-reuse


if __name__ == "__main__":
    out = augment_batch(jnp.zeros((4, 3, 3)), jax.random.PRNGKey(0))
    if bool(jnp.all(out[0] == out[1])):
        print("SHARP BIT: every image got the same noise")
