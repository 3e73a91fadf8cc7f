"""The twin of clean__memo_keyed_by_argument_tuple (keyed by a tuple expression): the cache entry is written on every call, not only when it is
absent, so a later write changes the value while the jitted function keeps the one it traced with.
"""
import jax
import jax.numpy as jnp
import numpy as np

_projectors = {}


def set_projector(reduced_dim, original_dim, scale):
    _projectors[(reduced_dim, original_dim)] = np.full(original_dim, scale)


@jax.jit
def project(x):
    return x @ _projectors[(2, 3)]  # expect: global-captured-in-jit


if __name__ == "__main__":
    set_projector(2, 3, 1.0)
    first = float(project(jnp.ones(3)))
    set_projector(2, 3, 2.0)
    if float(project(jnp.ones(3))) == first:
        print("SHARP BIT: the jitted function still uses the projector it traced with")
