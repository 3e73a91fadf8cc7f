"""Object-oriented data augmentation: a key stored on `self.rng` feeds two samplers in one method.

The flip decision and the crop offset are drawn from the same key; `jax_debug_key_reuse` raises
KeyReuseError on the second draw.
"""
import jax
import jax.numpy as jnp


class Augmenter:
    def __init__(self, seed):
        self.rng = jax.random.key(seed)

    def __call__(self, image):
        flip = jax.random.bernoulli(self.rng, 0.5)
        offset = jax.random.randint(self.rng, (), 0, 3)  # expect: prng-key-reuse
        image = jnp.where(flip, image[:, ::-1], image)
        return jnp.roll(image, offset, axis=0)


if __name__ == "__main__":
    jax.config.update("jax_debug_key_reuse", True)
    print(Augmenter(0)(jnp.arange(9.0).reshape(3, 3)))
