"""Sharp Bits: "Pure functions": a global read under `@jax.jit` is baked in at trace time.

`TEMPERATURE` is reassigned after the first call; the cached compiled function keeps using 1.0.
"""
import jax
import jax.numpy as jnp

TEMPERATURE = 1.0


@jax.jit
def softmax_with_temperature(logits):
    return jax.nn.softmax(logits / TEMPERATURE)  # expect: global-captured-in-jit


logits = jnp.array([1.0, 2.0, 3.0])
before = softmax_with_temperature(logits)
TEMPERATURE = 10.0
after = softmax_with_temperature(logits)
print("SHARP BIT: stale temperature:", bool(jnp.allclose(before, after)))
