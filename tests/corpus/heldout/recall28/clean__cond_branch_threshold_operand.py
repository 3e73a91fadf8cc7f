"""A module-level `lax.cond` branch function takes the threshold as part of its operand, and the jitted caller
receives it as an argument, so changing the setting between calls takes effect.
"""
import jax
import jax.numpy as jnp
from jax import lax

SETTINGS = {"threshold": 1.0}


def shrink(operand):
    x, t = operand
    return jnp.sign(x) * jnp.maximum(jnp.abs(x) - t, 0.0)


@jax.jit
def prox(x, active, t):
    return lax.cond(active, shrink, lambda op: op[0], (x, t))


if __name__ == "__main__":
    x = jnp.array([3.0, -2.0])
    first = prox(x, True, SETTINGS["threshold"])
    SETTINGS["threshold"] = 2.0
    second = prox(x, True, SETTINGS["threshold"])
    if bool(jnp.all(first == second)):
        print("SHARP BIT: the threshold change was ignored:", second)
