"""Sharp Bits: "Pure functions": a placeholder filled by a parameterless function that advances it from its own
last value (a schedule stage). Each call writes a new value, so the compiled step keeps the first one.
"""
import jax
import jax.numpy as jnp

_stage = None


def next_stage():
    global _stage
    _stage = 1 if _stage is None else _stage + 1


@jax.jit
def scaled(x):
    return x * _stage  # expect: global-captured-in-jit


next_stage()
print("first:", scaled(jnp.float32(1.0)))
next_stage()
second = scaled(jnp.float32(1.0))
if float(second) == 1.0:
    print("SHARP BIT: the stage advanced but the compiled step still uses stage 1:", second)
