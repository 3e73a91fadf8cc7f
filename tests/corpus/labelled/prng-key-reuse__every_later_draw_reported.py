"""JAX PRNG docs: four draws from one key give three reuses, each its own bug at its own line.

`init_layers` draws the weights of four layers from one key: layers 2, 3 and 4 repeat layer 1's numbers
(same shape: identical matrices). Each later draw is a finding, not only the second.
"""
import jax
import jax.numpy as jnp


def init_layers(key, width):
    w1 = jax.random.normal(key, (width, width))
    w2 = jax.random.normal(key, (width, width))  # expect: prng-key-reuse
    w3 = jax.random.normal(key, (width, width))  # expect: prng-key-reuse
    w4 = jax.random.normal(key, (width, width))  # expect: prng-key-reuse
    return [w1, w2, w3, w4]


if __name__ == "__main__":
    ws = init_layers(jax.random.PRNGKey(0), 3)
    print("SHARP BIT: layer 4 equals layer 1:", bool(jnp.all(ws[0] == ws[3])))
