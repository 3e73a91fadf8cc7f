"""JAX PRNG docs: one key per example: split to a batch of keys and `vmap` over them.
"""
import jax
import jax.numpy as jnp


def augment_one(key, image):
    k_flip, k_noise = jax.random.split(key)
    flip = jax.random.bernoulli(k_flip)
    image = jnp.where(flip, image[:, ::-1], image)
    return image + 0.05 * jax.random.normal(k_noise, image.shape)


@jax.jit
def augment_batch(key, images):
    keys = jax.random.split(key, images.shape[0])
    return jax.vmap(augment_one)(keys, images)


if __name__ == "__main__":
    key = jax.random.key(0)
    key, sub = jax.random.split(key)
    print(augment_batch(sub, jnp.ones((2, 3, 3))).shape)
