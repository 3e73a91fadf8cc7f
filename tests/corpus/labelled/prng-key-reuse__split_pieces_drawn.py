"""The twin of `clean__split_pieces_never_drawn`: here a compression step draws dither noise from the subkey it
is handed, so `compress` consumes `key` through its split, and the caller's own split of `key` gives the very
same subkey: its noise equals the dither.
"""
import jax
import jax.numpy as jnp


def dither_step(values, key):
    return values + jax.random.normal(key, values.shape)


def compress(values, key):
    key, subkey = jax.random.split(key)
    return dither_step(values, subkey)


def record(values):
    key = jax.random.PRNGKey(0)
    compressed = compress(values, key)
    key, subkey = jax.random.split(key)  # expect: prng-key-reuse
    noise = jax.random.normal(subkey, compressed.shape)
    return compressed, noise, values


if __name__ == "__main__":
    compressed, noise, values = record(jnp.zeros(4))
    if bool(jnp.array_equal(compressed - values, noise)):
        print("SHARP BIT: the caller's noise equals the dither drawn inside compress:", noise)
