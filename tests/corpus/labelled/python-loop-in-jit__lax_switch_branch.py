"""Sharp Bits / "Control flow": a branch function given to `lax.switch` that loops in Python.

Every branch is traced when the switch is built; the loop in the smoothing branch is unrolled.
"""
import jax.numpy as jnp
from jax import lax


def identity(x):
    return x


def heavy_smoothing(x):
    for _ in range(64):  # expect: python-loop-in-jit
        x = 0.5 * (x + jnp.roll(x, 1))
    return x


def clip(x):
    return jnp.clip(x, -1.0, 1.0)


def preprocess(mode, x):
    return lax.switch(mode, [identity, heavy_smoothing, clip], x)


if __name__ == "__main__":
    import jax

    print(preprocess(1, jnp.arange(6.0)))
    print("SHARP BIT: jaxpr lines:", len(str(jax.make_jaxpr(preprocess)(1, jnp.arange(6.0))).splitlines()))
