"""Sharp Bits: "Pure functions": a module-level settings object whose attribute changes after tracing.
"""
from types import SimpleNamespace

import jax
import jax.numpy as jnp

settings = SimpleNamespace(clip=1.0, temperature=1.0)


@jax.jit
def sample_logits(logits):
    logits = jnp.clip(logits, -settings.clip, settings.clip)  # expect: global-captured-in-jit
    return logits / settings.temperature


if __name__ == "__main__":
    x = jnp.array([3.0, -3.0])
    print(sample_logits(x))
    settings.clip = 10.0
    print("SHARP BIT: still clipped at 1.0:", sample_logits(x))
