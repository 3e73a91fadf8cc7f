"""Data augmentation with Python's `random.random() < 0.5` to decide a horizontal flip inside a jitted
function: the decision is made once at trace time and baked in, so every batch is flipped or none is.
"""
import random

import jax
import jax.numpy as jnp


@jax.jit
def augment(images):
    if random.random() < 0.5:  # expect: side-effect-in-jit
        images = images[:, :, ::-1]
    return images


if __name__ == "__main__":
    random.seed(3)
    batch = jnp.arange(8.0).reshape(1, 2, 4)
    flips = [bool(jnp.all(augment(batch) != batch)) for _ in range(8)]
    if len(set(flips)) == 1:
        print("SHARP BIT: 8 batches, one flip decision:", flips)
