"""An Equinox autoencoder that splits its key once per layer (no key reused under `jax_debug_key_reuse`)."""
import equinox as eqx
import jax
import jax.numpy as jnp


class AutoEncoder(eqx.Module):
    encoder: eqx.nn.Linear
    decoder: eqx.nn.Linear
    norm: eqx.nn.LayerNorm

    def __init__(self, key):
        enc_key, dec_key = jax.random.split(key)
        self.encoder = eqx.nn.Linear(8, 2, key=enc_key)
        self.decoder = eqx.nn.Linear(2, 8, key=dec_key)
        self.norm = eqx.nn.LayerNorm(8)

    def __call__(self, x):
        return self.norm(self.decoder(jax.nn.relu(self.encoder(x))))


if __name__ == "__main__":
    jax.config.update("jax_debug_key_reuse", True)
    print(AutoEncoder(jax.random.key(0))(jnp.ones(8)).shape)
