"""Project script: positions are built with `jnp.zeros(n, dtype=settings.DTYPE)`, the project's settings module
naming `jnp.float64`, in a program that enables x64 first: they are float64.
"""
import jax
import jax.numpy as jnp

from simcfg import settings


def init_positions():
    return jnp.zeros(settings.N_PARTICLES, dtype=settings.DTYPE)


if __name__ == "__main__":
    jax.config.update("jax_enable_x64", True)
    pos = init_positions()
    if pos.dtype != jnp.dtype("float64"):
        print("SHARP BIT:", settings.describe(), "requested, got", pos.dtype)
