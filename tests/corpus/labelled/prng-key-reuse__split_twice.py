"""JAX PRNG docs: splitting the same key twice gives the same children.

`k3, k4` are exactly `k1, k2`: the encoder and decoder get identical initialisations.
"""
import jax
import jax.numpy as jnp

key = jax.random.PRNGKey(0)
k1, k2 = jax.random.split(key)
encoder_w = jax.random.normal(k1, (8, 4))
encoder_b = jax.random.normal(k2, (4,))

k3, k4 = jax.random.split(key)  # expect: prng-key-reuse
decoder_w = jax.random.normal(k3, (8, 4))
decoder_b = jax.random.normal(k4, (4,))

print("SHARP BIT: decoder == encoder:", bool(jnp.allclose(encoder_w, decoder_w)))
