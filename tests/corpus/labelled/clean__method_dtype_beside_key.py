"""JAX PRNG docs: a ResNet-style builder (jaxonmodels's CLIP `_make_layer`) hands `key=` and `dtype=` to a layer
constructor. Each stage gets its own key; the same dtype ("float32") given to every stage is no key, however
often it is passed beside one.
"""
from collections import namedtuple

import jax
import jax.numpy as jnp

Stage = namedtuple("Stage", "planes key dtype")


def weights(stage):
    return jax.random.normal(stage.key, (stage.planes,), dtype=stage.dtype)


class Backbone:
    def __init__(self, *, key, dtype):
        k1, k2, k3 = jax.random.split(key, 3)
        self.layer1 = self._make_layer(4, key=k1, dtype=dtype)
        self.layer2 = self._make_layer(4, key=k2, dtype=dtype)
        self.head = self._make_layer(2, key=k3, dtype=dtype)

    def _make_layer(self, planes, *, key, dtype):
        return Stage(planes, key=key, dtype=dtype)


def build(key):
    dtype = "float32"
    k1, k2 = jax.random.split(key)
    return Backbone(key=k1, dtype=dtype), Backbone(key=k2, dtype=dtype)


if __name__ == "__main__":
    a, b = build(jax.random.PRNGKey(0))
    w1, w2 = weights(a.layer1), weights(a.layer2)
    print("stages differ:", not bool(jnp.array_equal(w1, w2)), "builds differ:",
          not bool(jnp.array_equal(weights(a.layer1), weights(b.layer1))))
