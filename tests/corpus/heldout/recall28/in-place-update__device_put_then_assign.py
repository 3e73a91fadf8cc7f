"""Loading a NumPy array to the device with `jax.device_put` and then patching one entry in place as one would
in NumPy: the device array is a JAX array and the assignment raises.
"""
import jax
import numpy as np


def load_embeddings(n, d):
    table = np.random.default_rng(0).normal(size=(n, d)).astype(np.float32)
    emb = jax.device_put(table)
    emb[0] = 0.0  # expect: in-place-update
    return emb


if __name__ == "__main__":
    print(load_embeddings(10, 4)[0])
