"""An Equinox autoencoder whose encoder and decoder layers are both built from the one key it was given.

Equinox layers draw their initial weights from `key`; two layers of different shapes built from one key start
from overlapping random bits. Run with `jax_debug_key_reuse`, which raises on the second use of the typed key.
"""
import equinox as eqx
import jax


class AutoEncoder(eqx.Module):
    encoder: eqx.nn.Linear
    decoder: eqx.nn.Linear

    def __init__(self, key):
        self.encoder = eqx.nn.Linear(8, 2, key=key)
        self.decoder = eqx.nn.Linear(2, 8, key=key)  # expect: prng-key-reuse

    def __call__(self, x):
        return self.decoder(jax.nn.relu(self.encoder(x)))


if __name__ == "__main__":
    jax.config.update("jax_debug_key_reuse", True)
    AutoEncoder(jax.random.key(0))
