"""Sharp Bits / control flow: "In-place updates" inside a branch function given to `lax.cond`.
"""
import jax.numpy as jnp
from jax import lax


def reset_head(x):
    x[0] = 0.0  # expect: in-place-update
    return x


def keep(x):
    return x


def maybe_reset(x, flag):
    return lax.cond(flag, reset_head, keep, x)


if __name__ == "__main__":
    print(maybe_reset(jnp.ones(3), True))
