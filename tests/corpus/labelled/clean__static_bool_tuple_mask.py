"""JIT docs "static arguments": a boolean mask given as a static tuple is a concrete NumPy mask at trace
time, so indexing with it has a static shape.
"""
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


@partial(jax.jit, static_argnames="keep")
def select_features(x, keep):
    mask = np.array(keep, dtype=bool)
    return x[:, mask]


if __name__ == "__main__":
    x = jnp.arange(8.0).reshape(2, 4)
    print(select_features(x, keep=(True, False, True, True)))
