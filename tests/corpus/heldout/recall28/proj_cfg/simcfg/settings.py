"""Settings of a project's simulation package (a helper module): the dtype requested for positions.

The module only names the dtype; whether JAX honours it depends on the program enabling `jax_enable_x64`.
"""
import jax.numpy as jnp

DTYPE = jnp.float64
N_PARTICLES = 8


def describe():
    return f"{N_PARTICLES} particles in {jnp.dtype(DTYPE).name}"
