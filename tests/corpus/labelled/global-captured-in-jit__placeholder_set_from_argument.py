"""Sharp Bits: "Pure functions": a module-level placeholder (`None`) filled by a setter that takes the values as
an argument. The jitted lookup baked in the first table; setting a new one later changes nothing it computes.
"""
import jax
import jax.numpy as jnp

_table = None


def set_table(values):
    global _table
    _table = jnp.asarray(values)


@jax.jit
def lookup(i):
    return _table[i] * 2.0  # expect: global-captured-in-jit


set_table([0.0, 1.0, 2.0])
print("first:", lookup(1))
set_table([0.0, 10.0, 20.0])
second = lookup(1)
if float(second) == 2.0:
    print("SHARP BIT: the new table is ignored by the compiled lookup:", second)
