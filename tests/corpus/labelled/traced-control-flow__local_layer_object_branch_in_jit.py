"""A jitted function builds a small layer object and calls it; the layer's `__call__` branches with a Python `if`
on its input's values, a tracer there (held-out set recall24: an NNX module's `__call__` under `nnx.jit`).
"""
import jax
import jax.numpy as jnp


class Rescale:
    def __init__(self, limit):
        self.limit = limit

    def __call__(self, x):
        if jnp.abs(x).max() > self.limit:  # expect: traced-control-flow
            x = x / 255.0
        return x


@jax.jit
def preprocess(images):
    rescale = Rescale(10.0)
    return rescale(images)


if __name__ == "__main__":
    preprocess(jnp.ones((2, 4)) * 100)
