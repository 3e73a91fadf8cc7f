"""Flax linen: an `@nn.compact` block gates its residual with a Python `if` on the norm of what its `nn.Dense`
layer returns. Under `jax.jit(model.apply)` the layer's output is a tracer, so the `if` raises
TracerBoolConversionError (a layer called on an array returns an array).
"""
import flax.linen as nn
import jax
import jax.numpy as jnp


class GatedResidual(nn.Module):
    @nn.compact
    def __call__(self, x):
        dense = nn.Dense(x.shape[-1])
        h = dense(x)
        if jnp.linalg.norm(h) > 1.0:  # expect: traced-control-flow
            h = h / jnp.linalg.norm(h)
        return x + h


if __name__ == "__main__":
    model = GatedResidual()
    x = jnp.ones((2, 4))
    params = model.init(jax.random.key(0), x)
    try:
        jax.jit(model.apply)(params, x)
    except jax.errors.TracerBoolConversionError:
        print("SHARP BIT: TracerBoolConversionError on the Dense layer's output")
