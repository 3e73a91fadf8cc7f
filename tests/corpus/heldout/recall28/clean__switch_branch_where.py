"""`lax.switch` over activation branches: the clipping branch chooses with `jnp.minimum`, which needs no
Python decision on the traced operand.
"""
import jax
import jax.numpy as jnp
from jax import lax


def relu(x):
    return jnp.maximum(x, 0.0)


def clipped(x):
    return jnp.minimum(x, 6.0)


def activate(index, x):
    return lax.switch(index, [relu, clipped, jnp.tanh], x)


if __name__ == "__main__":
    print(activate(0, jnp.array([-1.0, 7.0])))
    print(activate(1, jnp.array([-1.0, 7.0])))
