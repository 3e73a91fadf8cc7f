"""Flax/equinox idiom: `jax.eval_shape(init, key)` gives the parameter shapes without allocating them.

`init_stack` loops over its layers in Python, but it is only ever run under `jax.eval_shape`, which
traces abstractly and never compiles, so nothing is unrolled into a program that runs.
"""
from functools import partial

import jax
import jax.numpy as jnp

NUM_LAYERS = 48


def init_stack(key, width):
    params = []
    for layer_key in jax.random.split(key, NUM_LAYERS):
        w = jax.random.normal(layer_key, (width, width)) / jnp.sqrt(width)
        params.append({"w": w, "b": jnp.zeros(width)})
    return params


def count_parameters(width, seed=0):
    shapes = jax.eval_shape(partial(init_stack, width=width), jax.random.key(seed))
    return sum(leaf.size for leaf in jax.tree_util.tree_leaves(shapes))


if __name__ == "__main__":
    print("parameters:", count_parameters(512))
