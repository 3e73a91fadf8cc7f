"""A noisy layer keeps its key on `self.key` and draws the noise from it in `__call__`; the loop calls the layer
on every batch, so every batch gets the same noise."""
import jax
import jax.numpy as jnp


class NoisyLayer:
    def __init__(self, key, scale=0.1):
        self.key = key
        self.scale = scale

    def __call__(self, x):
        return x + self.scale * jax.random.normal(self.key, x.shape)  # expect: prng-key-reuse


if __name__ == "__main__":
    layer = NoisyLayer(jax.random.PRNGKey(0))
    outs = [layer(jnp.zeros(4)) for _ in range(3)]
    if all(bool(jnp.array_equal(o, outs[0])) for o in outs):
        print("SHARP BIT: the same noise for every batch")
