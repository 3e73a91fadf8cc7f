"""Patching one entry of a NumPy table in place and only then loading it to the device with `jax.device_put`:
the assignment writes a NumPy array.
"""
import jax
import numpy as np


def load_embeddings(n, d):
    table = np.random.default_rng(0).normal(size=(n, d)).astype(np.float32)
    table[0] = 0.0
    emb = jax.device_put(table)
    return emb


if __name__ == "__main__":
    print(load_embeddings(10, 4)[0])
