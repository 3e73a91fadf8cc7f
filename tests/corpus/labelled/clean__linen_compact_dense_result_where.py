"""Flax linen: the same gated residual, written with `jnp.where`, so the choice is made on the device inside
`jax.jit(model.apply)` and nothing asks a tracer for a Python bool.
"""
import flax.linen as nn
import jax
import jax.numpy as jnp


class GatedResidual(nn.Module):
    @nn.compact
    def __call__(self, x):
        dense = nn.Dense(x.shape[-1])
        h = dense(x)
        norm = jnp.linalg.norm(h)
        h = jnp.where(norm > 1.0, h / norm, h)
        return x + h


if __name__ == "__main__":
    model = GatedResidual()
    x = jnp.ones((2, 4))
    params = model.init(jax.random.key(0), x)
    print(jax.jit(model.apply)(params, x).shape)
