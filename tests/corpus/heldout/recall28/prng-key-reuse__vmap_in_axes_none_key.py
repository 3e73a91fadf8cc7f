"""Per-example noise with `jax.vmap(add_noise, in_axes=(None, 0))(key, batch)`: the key is not mapped, so every
example of the batch receives the same noise vector (denoising-autoencoder input corruption).
"""
import jax
import jax.numpy as jnp


def add_noise(key, x):
    return x + 0.5 * jax.random.normal(key, x.shape)


def corrupt(key, batch):
    return jax.vmap(add_noise, in_axes=(None, 0))(key, batch)  # expect: prng-key-reuse


if __name__ == "__main__":
    batch = jnp.zeros((4, 3))
    noisy = corrupt(jax.random.key(0), batch)
    if bool(jnp.all(noisy == noisy[0])):
        print("SHARP BIT: all 4 examples got the same noise:", noisy[0])
