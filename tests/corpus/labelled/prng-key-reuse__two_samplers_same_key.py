"""Sharp Bits: "Random numbers" / JAX PRNG docs: never reuse a key.

Weights and biases initialised from the same `PRNGKey`: both draws are the same numbers.
"""
import jax
import jax.numpy as jnp
from jax import random


def init_linear(key, n_in, n_out):
    w = random.normal(key, (n_in, n_out)) / jnp.sqrt(n_in)
    b = random.normal(key, (n_in, n_out))[0]  # expect: prng-key-reuse
    return w, b


if __name__ == "__main__":
    w, b = init_linear(random.PRNGKey(0), 4, 3)
    print("SHARP BIT: b equals the first row of w*sqrt(n_in):", bool(jnp.allclose(w[0] * 2.0, b)))
    print(jax.tree_util.tree_map(jnp.shape, (w, b)))
