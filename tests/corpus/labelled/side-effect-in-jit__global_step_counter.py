"""Sharp Bits: "Pure functions": a `global` step counter bumped inside a jitted update.

The counter is written once, when `update` is traced; later calls run the compiled program only.
"""
from jax import jit
import jax.numpy as jnp

step = 0


@jit
def update(params, grads):
    global step
    step = step + 1  # expect: side-effect-in-jit
    return jnp.asarray(params) - 0.01 * grads


if __name__ == "__main__":
    params = jnp.ones(4)
    for _ in range(5):
        params = update(params, jnp.ones(4))
    if step != 5:
        print("SHARP BIT: 5 updates, step counter =", step)
