"""Calling an object runs its class's `__call__`: here that draws from the key it is handed.

`drop(x, key=key)` with `drop = Dropout(0.5)` runs `Dropout.__call__`, which draws its mask from `key`; the noise
drawn from the same key afterwards is correlated with the mask (equinox-style modules: `self.drop` set once in
`__init__` is the same).
"""
import jax
import jax.numpy as jnp


class Dropout:
    def __init__(self, rate):
        self.rate = rate

    def __call__(self, x, *, key):
        keep = jax.random.bernoulli(key, 1.0 - self.rate, x.shape)
        return jnp.where(keep, x / (1.0 - self.rate), 0.0)


class Block:
    def __init__(self):
        self.drop = Dropout(0.5)

    def __call__(self, x, *, key):
        y = self.drop(x, key=key)
        return y + jax.random.normal(key, x.shape)  # expect: prng-key-reuse


def forward(x, key):
    drop = Dropout(0.5)
    y = drop(x, key=key)
    return y + jax.random.uniform(key, x.shape)  # expect: prng-key-reuse


if __name__ == "__main__":
    x = jnp.ones(4)
    print(Block()(x, key=jax.random.PRNGKey(0)), forward(x, jax.random.PRNGKey(0)))
