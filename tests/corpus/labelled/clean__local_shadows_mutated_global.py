"""Sharp Bits: "Pure functions": a parameter named like a mutable global is a parameter, not the global.
"""
import jax
import jax.numpy as jnp

scale = 1.0
state = {"calls": 0}


@jax.jit
def scaled(x, scale):
    return x * scale


@jax.jit
def update(state, x):
    state = {"sum": state["sum"] + jnp.sum(x)}
    return state


def bump():
    global scale
    scale = scale * 2
    state["calls"] += 1


if __name__ == "__main__":
    bump()
    print(scaled(jnp.ones(2), scale), update({"sum": jnp.zeros(())}, jnp.ones(3)), state)
