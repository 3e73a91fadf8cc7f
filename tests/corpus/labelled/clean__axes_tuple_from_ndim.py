"""Flax/haiku-style layer norm: loops over `range(x.ndim)` that only build axis tuples and shapes.

The loops run Python on static shapes at trace time and add no equation to the program; the reductions
are one `jnp.mean` each, whatever the rank.
"""
import jax
import jax.numpy as jnp


def _reduction_axes(x, begin_axis):
    axes = []
    for axis in range(begin_axis % x.ndim, x.ndim):
        if x.shape[axis] != 1:
            axes.append(axis)
    return tuple(axes)


def _param_shape(x, axes):
    shape = []
    for i in range(len(x.shape)):
        shape.append(x.shape[i] if i in axes else 1)
    return tuple(shape)


@jax.jit
def layer_norm(x, eps=1e-5):
    axes = _reduction_axes(x, begin_axis=-1)
    mean = jnp.mean(x, axis=axes, keepdims=True)
    var = jnp.mean(jnp.square(x - mean), axis=axes, keepdims=True)
    scale = jnp.ones(_param_shape(x, axes))
    return scale * (x - mean) * jax.lax.rsqrt(var + eps)


if __name__ == "__main__":
    x = jnp.arange(24.0).reshape(2, 3, 4)
    print(layer_norm(x).shape)
    print("equations:", len(jax.make_jaxpr(layer_norm.__wrapped__)(x).jaxpr.eqns))
