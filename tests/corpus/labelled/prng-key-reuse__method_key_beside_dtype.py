"""JAX PRNG docs: never reuse a key. A ResNet-style builder (jaxonmodels's CLIP `_make_layer`) hands `key=`
and `dtype=` to a layer constructor; two stages built from the same key get the same weights. The dtype beside
the key is no key: only the key's second use is the bug.
"""
from collections import namedtuple

import jax
import jax.numpy as jnp

Stage = namedtuple("Stage", "planes key dtype")


def weights(stage):
    return jax.random.normal(stage.key, (stage.planes,), dtype=stage.dtype)


class Backbone:
    def __init__(self, *, key, dtype):
        self.layer1 = self._make_layer(4, key=key, dtype=dtype)
        self.layer2 = self._make_layer(4, key=key, dtype=dtype)  # expect: prng-key-reuse

    def _make_layer(self, planes, *, key, dtype):
        return Stage(planes, key=key, dtype=dtype)


if __name__ == "__main__":
    net = Backbone(key=jax.random.PRNGKey(0), dtype=jnp.float32)
    w1, w2 = weights(net.layer1), weights(net.layer2)
    print("SHARP BIT: both stages get the same weights:", bool(jnp.array_equal(w1, w2)))
