"""Flax NNX: a block builds two LayerNorms each with `rngs=nnx.Rngs(seed)` from the same seed. A LayerNorm draws
nothing at construction (its scale starts at ones, its bias at zeros), so sharing the seed makes no two draws equal.
"""
import jax.numpy as jnp
from flax import nnx


class Block(nnx.Module):
    def __init__(self, seed):
        self.pre = nnx.LayerNorm(4, rngs=nnx.Rngs(seed))
        self.post = nnx.LayerNorm(4, rngs=nnx.Rngs(seed))

    def __call__(self, x):
        return self.post(self.pre(x))


if __name__ == "__main__":
    print(Block(3)(jnp.arange(4.0)))
