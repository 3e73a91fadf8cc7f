"""Flax NNX: a normalisation module whose `__call__` skips the rescale with a Python `if` on the input's norm.
The model is called from a `@nnx.jit` function, so the input is a tracer and the `if` raises.
"""
import jax.numpy as jnp
from flax import nnx


class MaybeRescale(nnx.Module):
    def __init__(self, dim, rngs):
        self.proj = nnx.Linear(dim, dim, rngs=rngs)

    def __call__(self, x):
        h = self.proj(x)
        if jnp.linalg.norm(h) > 10.0:  # expect: traced-control-flow
            h = h / jnp.linalg.norm(h)
        return h


@nnx.jit
def forward(model, x):
    return model(x)


if __name__ == "__main__":
    model = MaybeRescale(4, nnx.Rngs(0))
    print(forward(model, jnp.ones((2, 4))))
