"""Flax NNX: a normalisation module whose `__call__` rescales with `jnp.where` on the input's norm, so the
`@nnx.jit` function that calls it traces without a Python decision.
"""
import jax.numpy as jnp
from flax import nnx


class MaybeRescale(nnx.Module):
    def __init__(self, dim, rngs):
        self.proj = nnx.Linear(dim, dim, rngs=rngs)

    def __call__(self, x):
        h = self.proj(x)
        norm = jnp.linalg.norm(h)
        return jnp.where(norm > 10.0, h / norm, h)


@nnx.jit
def forward(model, x):
    return model(x)


if __name__ == "__main__":
    model = MaybeRescale(4, nnx.Rngs(0))
    print(forward(model, jnp.ones((2, 4))))
