"""A module-level `lax.cond` branch function reads the global `THRESHOLD`, which `set_threshold()` rebinds
through `global`: the jitted caller keeps the threshold it was traced with.
"""
import jax
import jax.numpy as jnp
from jax import lax

THRESHOLD = 1.0


def set_threshold(value):
    global THRESHOLD
    THRESHOLD = value


def shrink(x):
    return jnp.sign(x) * jnp.maximum(jnp.abs(x) - THRESHOLD, 0.0)  # expect: global-captured-in-jit


@jax.jit
def prox(x, active):
    return lax.cond(active, shrink, lambda x: x, x)


if __name__ == "__main__":
    x = jnp.array([3.0, -2.0])
    first = prox(x, True)
    set_threshold(2.0)
    second = prox(x, True)
    if bool(jnp.all(first == second)):
        print("SHARP BIT: the threshold change was ignored:", second)
