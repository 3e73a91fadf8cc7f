"""Twin: the noisy layer splits the key it keeps on every call; a second layer built per batch (a new object each
time, from its own key) draws once from the key it was given."""
import jax
import jax.numpy as jnp


class NoisyLayer:
    def __init__(self, key, scale=0.1):
        self.key = key
        self.scale = scale

    def __call__(self, x):
        self.key, sub = jax.random.split(self.key)
        return x + self.scale * jax.random.normal(sub, x.shape)


class OnceNoise:
    def __init__(self, key):
        self.key = key

    def __call__(self, x):
        return x + jax.random.normal(self.key, x.shape)


if __name__ == "__main__":
    layer = NoisyLayer(jax.random.PRNGKey(0))
    print([layer(jnp.zeros(2)) for _ in range(3)])
    print([OnceNoise(k)(jnp.zeros(2)) for k in jax.random.split(jax.random.PRNGKey(1), 3)])
