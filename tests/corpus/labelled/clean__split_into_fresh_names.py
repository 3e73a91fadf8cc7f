"""JAX PRNG docs: split once into as many fresh keys as there are consumers.
"""
import jax
import jax.numpy as jnp
from jax import random


def init_block(key, d_model, d_ff):
    k_q, k_k, k_v, k_ff1, k_ff2 = random.split(key, 5)
    scale = 1.0 / jnp.sqrt(d_model)
    return {
        "wq": random.normal(k_q, (d_model, d_model)) * scale,
        "wk": random.normal(k_k, (d_model, d_model)) * scale,
        "wv": random.normal(k_v, (d_model, d_model)) * scale,
        "ff1": random.normal(k_ff1, (d_model, d_ff)) * scale,
        "ff2": random.normal(k_ff2, (d_ff, d_model)) / jnp.sqrt(d_ff),
    }


def init_model(key, n_layers, d_model=16, d_ff=32):
    keys = random.split(key, n_layers)
    return [init_block(k, d_model, d_ff) for k in keys]


if __name__ == "__main__":
    params = init_model(random.key(0), 2)
    print(jax.tree_util.tree_map(jnp.shape, params[0]))
