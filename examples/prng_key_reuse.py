"""PRNG key reuse: the same key gives the same numbers.

Hover the squiggles for the explanation; the quick fix splits the key before its first use.
"""

import jax
import jax.numpy as jnp


def init_layer(key, n_in, n_out):
    w = jax.random.normal(key, (n_in, n_out)) / jnp.sqrt(n_in)
    b = jax.random.normal(key, (n_out,)) * 0.01
    return w, b


def noisy_steps(x, key, steps=3):
    for _ in range(steps):
        x = x + 0.1 * jax.random.normal(key, x.shape)
    return x


def init_layer_right(key, n_in, n_out):
    w_key, b_key = jax.random.split(key)
    w = jax.random.normal(w_key, (n_in, n_out)) / jnp.sqrt(n_in)
    b = jax.random.normal(b_key, (n_out,)) * 0.01
    return w, b


def noisy_steps_right(x, key, steps=3):
    for _ in range(steps):
        key, subkey = jax.random.split(key)
        x = x + 0.1 * jax.random.normal(subkey, x.shape)
    return x
