"""`lax.switch` over activation branches: one branch tests its operand with a Python `if`. Every branch of a
switch is traced with abstract operands, so the `if` raises TracerBoolConversionError even when another branch
is chosen.
"""
import jax
import jax.numpy as jnp
from jax import lax


def relu(x):
    return jnp.maximum(x, 0.0)


def clipped(x):
    if jnp.max(x) > 6.0:  # expect: traced-control-flow
        return jnp.minimum(x, 6.0)
    return x


def activate(index, x):
    return lax.switch(index, [relu, clipped, jnp.tanh], x)


if __name__ == "__main__":
    print(activate(0, jnp.array([-1.0, 7.0])))
