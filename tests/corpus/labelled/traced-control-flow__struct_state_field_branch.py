"""A flax struct dataclass holds the early-stopping state; the jitted step stops counting with a Python `if`
on `state.patience`, a field declared `jax.Array`. The state is an argument of the jitted step, so every field is
a tracer and the comparison has no Python truth value.
"""
import jax
import jax.numpy as jnp
from flax import struct


@struct.dataclass
class EarlyStop:
    best: jax.Array
    patience: jax.Array


@jax.jit
def update(state, loss):
    if state.patience > 0:  # expect: traced-control-flow
        return EarlyStop(jnp.minimum(loss, state.best), state.patience - 1)
    return state


if __name__ == "__main__":
    state = EarlyStop(jnp.array(1.0), jnp.array(3))
    try:
        update(state, jnp.array(0.5))
    except jax.errors.TracerBoolConversionError:
        print("SHARP BIT: TracerBoolConversionError on a field of the traced state")
