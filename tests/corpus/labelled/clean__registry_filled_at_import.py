"""Library-style registries: a dict of activations filled by a decorator, a lookup table and flags set
on a module-level object, all at import time before anything is traced.

The jitted code reads them, but they never change after it captured them, so nothing goes stale.
"""
from functools import partial
from types import SimpleNamespace

import jax
import jax.numpy as jnp

ACTIVATIONS = {}


def register(name):
    def wrap(fn):
        ACTIVATIONS[name] = fn
        return fn
    return wrap


@register("swish")
def swish(x):
    return x * jax.nn.sigmoid(x)


ACTIVATIONS["relu"] = jax.nn.relu
ACTIVATIONS.update(gelu=jax.nn.gelu, tanh=jnp.tanh)
INIT_SCALE = {}
for name in ACTIVATIONS:
    INIT_SCALE[name] = 2.0 if name == "relu" else 1.0
FLAGS = SimpleNamespace()
FLAGS.residual = True


@partial(jax.jit, static_argnames="activation")
def block(x, w, activation="swish"):
    h = ACTIVATIONS[activation](x @ w) * INIT_SCALE[activation]
    return x + h if FLAGS.residual else h


if __name__ == "__main__":
    x, w = jnp.ones((2, 3)), jnp.eye(3)
    print(block(x, w), block(x, w, activation="relu"))
