"""Sharp Bits: "In-place updates": data converted with `jnp.asarray` is a JAX array from then on.

Eager code: the item assignment raises TypeError.
"""
import jax.numpy as jnp
import numpy as np


def load_and_fix(raw):
    x = jnp.asarray(raw, dtype=jnp.float32)
    x[np.isnan(raw)] = 0.0  # expect: in-place-update
    return x


if __name__ == "__main__":
    print(load_and_fix(np.array([1.0, np.nan, 3.0])))
