"""A custom_vjp clip whose forward rule saves a NumPy copy of the input for the backward pass.

Under `jax.jit(jax.grad(...))` the forward rule is traced: `np.asarray` on a tracer raises
TracerArrayConversionError.
"""
import jax
import jax.numpy as jnp
import numpy as np


@jax.custom_vjp
def clip_grad(x):
    return x


def clip_fwd(x):
    saved = np.asarray(x)  # expect: host-conversion-in-jit
    return x, saved


def clip_bwd(saved, g):
    return (jnp.clip(g, -1.0, 1.0),)


clip_grad.defvjp(clip_fwd, clip_bwd)


@jax.jit
def loss_grad(x):
    return jax.grad(lambda x: jnp.sum(clip_grad(x) ** 3))(x)


if __name__ == "__main__":
    print(loss_grad(jnp.arange(3.0)))
