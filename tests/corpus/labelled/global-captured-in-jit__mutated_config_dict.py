"""Sharp Bits: "Pure functions": a module-level config dict that is mutated after tracing.

`config["relu"] = True` changes nothing for the already-compiled `@partial(jax.jit, ...)` function.
"""
from functools import partial

import jax
import jax.numpy as jnp

config = {"relu": False, "scale": 2.0}


@partial(jax.jit, static_argnums=1)
def layer(x, width):
    h = x[:width] * config["scale"]  # expect: global-captured-in-jit
    if config["relu"]:
        h = jax.nn.relu(h)
    return h


if __name__ == "__main__":
    x = jnp.array([-1.0, 2.0, -3.0])
    print(layer(x, 2))
    config["relu"] = True
    print("SHARP BIT: negative values survive the relu:", layer(x, 2))
