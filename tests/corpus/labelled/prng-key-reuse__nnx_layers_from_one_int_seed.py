"""Flax NNX: an autoencoder builds its encoder and decoder each with `rngs=nnx.Rngs(seed)` from the same int seed.
`Rngs(seed)` makes the key of that seed and folds in its counter 0, 1, ...: both layers draw their kernels from the
same key, so the decoder starts as a copy of the encoder, whether the seed is an int or a key.
"""
import jax.numpy as jnp
from flax import nnx


class AutoEncoder(nnx.Module):
    def __init__(self, seed):
        self.encoder = nnx.Linear(4, 4, rngs=nnx.Rngs(seed))
        self.decoder = nnx.Linear(4, 4, rngs=nnx.Rngs(seed))  # expect: prng-key-reuse

    def __call__(self, x):
        return self.decoder(self.encoder(x))


if __name__ == "__main__":
    model = AutoEncoder(3)
    if bool(jnp.all(model.encoder.kernel[...] == model.decoder.kernel[...])):
        print("SHARP BIT: the encoder and decoder start with identical kernels")
