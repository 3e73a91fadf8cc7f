"""A flax struct dataclass holds the early-stopping state; the jitted step stops counting with `jnp.where` on
`state.patience`, so the choice is made on the device and the step traces once.
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
    going = state.patience > 0
    return EarlyStop(jnp.where(going, jnp.minimum(loss, state.best), state.best),
                     jnp.where(going, state.patience - 1, state.patience))


if __name__ == "__main__":
    state = EarlyStop(jnp.array(1.0), jnp.array(3))
    print(update(state, jnp.array(0.5)))
