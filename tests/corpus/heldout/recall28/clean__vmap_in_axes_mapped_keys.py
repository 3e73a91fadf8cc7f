"""Per-example noise with `jax.vmap(add_noise, in_axes=(0, 0))(keys, batch)`: one key per example, split to the
batch size, so each example receives its own noise (denoising-autoencoder input corruption).
"""
import jax
import jax.numpy as jnp


def add_noise(key, x):
    return x + 0.5 * jax.random.normal(key, x.shape)


def corrupt(key, batch):
    keys = jax.random.split(key, batch.shape[0])
    return jax.vmap(add_noise, in_axes=(0, 0))(keys, batch)


if __name__ == "__main__":
    batch = jnp.zeros((4, 3))
    noisy = corrupt(jax.random.key(0), batch)
    if bool(jnp.all(noisy == noisy[0])):
        print("SHARP BIT: all 4 examples got the same noise:", noisy[0])
