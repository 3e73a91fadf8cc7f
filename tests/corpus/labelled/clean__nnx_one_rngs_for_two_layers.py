"""Flax NNX: two layers built from one `nnx.Rngs(key)` object. The object advances its counter on each draw, so
the query and value towers get different kernels.
"""
import jax
import jax.numpy as jnp
from flax import nnx


class TwoTower(nnx.Module):
    def __init__(self, key):
        rngs = nnx.Rngs(key)
        self.query = nnx.Linear(8, 8, rngs=rngs)
        self.value = nnx.Linear(8, 8, rngs=rngs)

    def __call__(self, x):
        return self.query(x) * self.value(x)


if __name__ == "__main__":
    model = TwoTower(jax.random.key(0))
    if bool(jnp.all(model.query.kernel[...] == model.value.kernel[...])):
        print("SHARP BIT: the query and value towers start with identical kernels")
    print(model(jnp.ones((1, 8))).shape)
