"""Data augmentation deciding a horizontal flip with `jax.random.bernoulli(key)` inside a jitted function and
choosing with `jnp.where`: each call with a new key decides anew.
"""
import jax
import jax.numpy as jnp


@jax.jit
def augment(images, key):
    flip = jax.random.bernoulli(key)
    return jnp.where(flip, images[:, :, ::-1], images)


if __name__ == "__main__":
    batch = jnp.arange(8.0).reshape(1, 2, 4)
    keys = jax.random.split(jax.random.key(3), 8)
    flips = [bool(jnp.all(augment(batch, k) != batch)) for k in keys]
    if len(set(flips)) == 1:
        print("SHARP BIT: 8 batches, one flip decision:", flips)
