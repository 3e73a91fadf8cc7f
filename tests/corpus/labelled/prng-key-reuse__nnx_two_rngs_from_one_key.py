"""Flax NNX: two layers built with `rngs=nnx.Rngs(key)` from the same key. Each `Rngs` starts its counter at 0,
so both layers draw their kernels from the same derived key and start as copies of each other.
"""
import jax
import jax.numpy as jnp
from flax import nnx


class TwoTower(nnx.Module):
    def __init__(self, key):
        self.query = nnx.Linear(8, 8, rngs=nnx.Rngs(key))
        self.value = nnx.Linear(8, 8, rngs=nnx.Rngs(key))  # expect: prng-key-reuse

    def __call__(self, x):
        return self.query(x) * self.value(x)


if __name__ == "__main__":
    model = TwoTower(jax.random.key(0))
    if bool(jnp.all(model.query.kernel[...] == model.value.kernel[...])):
        print("SHARP BIT: the query and value towers start with identical kernels")
