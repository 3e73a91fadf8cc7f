"""teneva-jax's `convert` (act_one.py): `jnp.split` returns a Python list of arrays, so `cores[k] = ...` replaces
an item of that list (here by a NumPy copy of the core): no JAX array is written.
"""
import jax.numpy as jnp
import numpy as np


def to_numpy_cores(Ym):
    cores = jnp.split(Ym, Ym.shape[0])
    for k in range(len(cores)):
        cores[k] = np.array(cores[k][0])
    return cores


if __name__ == "__main__":
    out = to_numpy_cores(jnp.arange(12.0).reshape(3, 2, 2))
    assert all(isinstance(c, np.ndarray) and c.shape == (2, 2) for c in out)
    print([c.tolist() for c in out])
