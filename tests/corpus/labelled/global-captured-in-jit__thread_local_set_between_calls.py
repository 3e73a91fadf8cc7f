"""Sharp Bits: "Pure functions": a `threading.local` option changed between two calls in one thread.

Thread-local or not, the jitted function baked in the first value: the second call still uses it.
"""
import threading

import jax
import jax.numpy as jnp

_options = threading.local()
_options.scale = 1.0


@jax.jit
def scaled(x):
    return x * _options.scale  # expect: global-captured-in-jit


first = scaled(jnp.ones(2))
_options.scale = 2.0
second = scaled(jnp.ones(2))

if __name__ == "__main__":
    print("SHARP BIT: scale 2.0 ignored:", first, second)
    assert bool(jnp.all(first == second))
