"""Gradient clipping written as a `jax.custom_vjp` whose backward rule clips the cotangent with `np.clip`.
Under `jax.jit(jax.grad(...))` the cotangent is a tracer and NumPy cannot convert it.
"""
import jax
import jax.numpy as jnp
import numpy as np


@jax.custom_vjp
def clip_grad(x):
    return x


def clip_fwd(x):
    return x, None


def clip_bwd(_, g):
    return (np.clip(g, -1.0, 1.0),)  # expect: host-conversion-in-jit


clip_grad.defvjp(clip_fwd, clip_bwd)


@jax.jit
def grads(w):
    return jax.grad(lambda w: jnp.sum(clip_grad(w) ** 3))(w)


if __name__ == "__main__":
    print(grads(jnp.array([0.1, 2.0])))
