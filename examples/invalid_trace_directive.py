"""Trace directives the tracer cannot read: a bracket left open, and a comment that is not a call."""

import jax
import jax.numpy as jnp


# sharpbits: trace(x=f32[1000,10)
@jax.jit
def normalise(x):
    return (x - x.mean(0)) / (x.std(0) + 1e-6)


# sharpbits: trace x=f32[8]
@jax.jit
def double(x):
    return 2 * x


# sharpbits: trace(x=f32[1000,10])
@jax.jit
def centre(x):
    return x - x.mean(0)


if __name__ == "__main__":
    print(normalise(jnp.ones((4, 3))), double(jnp.ones(8)), centre(jnp.ones((4, 3))))
