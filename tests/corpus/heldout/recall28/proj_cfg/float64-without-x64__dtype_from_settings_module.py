"""Project script: positions are built with `jnp.zeros(n, dtype=settings.DTYPE)`, the project's settings module
naming `jnp.float64`, in a program that never enables x64: they are float32.
"""
import jax.numpy as jnp

from simcfg import settings


def init_positions():
    return jnp.zeros(settings.N_PARTICLES, dtype=settings.DTYPE)  # expect: float64-without-x64


if __name__ == "__main__":
    pos = init_positions()
    if pos.dtype != jnp.dtype("float64"):
        print("SHARP BIT:", settings.describe(), "requested, got", pos.dtype)
