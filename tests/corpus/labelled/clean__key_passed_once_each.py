"""JAX PRNG docs: each subkey is passed to exactly one consumer; the parent is only split.
"""
import jax
import jax.numpy as jnp


def init_encoder(key):
    return jax.random.normal(key, (8, 4)) * 0.1


def init_decoder(key):
    return jax.random.normal(key, (4, 8)) * 0.1


def sample_latents(key, n):
    return jax.random.normal(key, (n, 4))


def build(seed):
    root = jax.random.PRNGKey(seed)
    enc_key, dec_key, z_key = jax.random.split(root, 3)
    encoder = init_encoder(enc_key)
    decoder = init_decoder(dec_key)
    z = sample_latents(z_key, 5)
    return encoder, decoder, z @ decoder


if __name__ == "__main__":
    print(jax.tree_util.tree_map(jnp.shape, build(0)))
