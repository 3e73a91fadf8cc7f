"""Sharp Bits: "Pure functions" / jitting methods: a jitted method that stores its result on `self`.

`self` is static (static_argnums=0); the attribute is set once, at trace time, to a tracer.
"""
from functools import partial

import jax
import jax.numpy as jnp


class RunningNorm:
    def __init__(self, eps):
        self.eps = eps

    @partial(jax.jit, static_argnums=0)
    def normalize(self, x):
        scale = jnp.sqrt(jnp.mean(x**2) + self.eps)
        self.last_scale = scale  # expect: side-effect-in-jit
        return x / scale


if __name__ == "__main__":
    norm = RunningNorm(1e-6)
    norm.normalize(jnp.arange(4.0))
    norm.normalize(jnp.arange(8.0))
    if isinstance(norm.last_scale, jax.core.Tracer):
        print("SHARP BIT: last_scale is a tracer")
