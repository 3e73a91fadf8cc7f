"""Calling an object whose class's `__call__` never reads its key draws nothing (foundax's DeepONet blocks).

`self.attn(x, key=key)` with `self.attn = Attention(...)` set in `__init__` runs `Attention.__call__`, which takes
`key=` for a uniform signature and ignores it: the later draw from `key` is its first.
"""
import jax
import jax.numpy as jnp


class Attention:
    def __init__(self, *, key):
        self.w = jax.random.normal(key, (4, 4))

    def __call__(self, x, *, key=None):
        return jnp.tanh(self.w @ x)


class Block:
    def __init__(self, *, key):
        self.attn = Attention(key=key)

    def __call__(self, x, *, key):
        x = x + self.attn(x, key=key)
        key, sub = jax.random.split(key)
        return x + jax.random.normal(sub, x.shape)


def forward(x, key):
    attn = Attention(key=jax.random.PRNGKey(1))
    y = attn(x, key=key)
    return y + jax.random.normal(key, x.shape)


if __name__ == "__main__":
    x = jnp.ones(4)
    print(Block(key=jax.random.PRNGKey(0))(x, key=jax.random.PRNGKey(2)), forward(x, jax.random.PRNGKey(3)))
