"""Fourier features built by a list comprehension over 256 frequencies inside `@jax.jit`: like a `for` loop,
the comprehension is unrolled, one set of equations per element.
"""
import jax
import jax.numpy as jnp


@jax.jit
def fourier_features(x):
    return jnp.stack([jnp.sin(x * (k + 1)) for k in range(256)], axis=-1)  # expect: python-loop-in-jit


if __name__ == "__main__":
    n = len(jax.make_jaxpr(fourier_features.__wrapped__)(jnp.ones(4)).jaxpr.eqns)
    if n > 500:
        print("SHARP BIT: equations in the unrolled jaxpr:", n)
