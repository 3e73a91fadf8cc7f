"""jax_galsim `tests/jax/test_render_scene.py` (round 12): `image[stamp.bounds] += stamp` on an object whose class
defines its own `__setitem__` (jax_galsim's `Image`, a pytree whose item assignment rebuilds its array with
`.at[].set`).

The image reaches the jitted scan body inside a tuple carry (`lax.scan(partial(add, n=2), (image,), stamps)`), and
another jitted function takes one annotated `image: Image`: neither is a JAX array, and both writes run.
"""
from functools import partial

import jax
import jax.numpy as jnp


class Image:
    def __init__(self, array):
        self.array = array

    def __getitem__(self, index):
        return self.array[index]

    def __setitem__(self, index, value):
        self.array = self.array.at[index].set(value)


jax.tree_util.register_pytree_node(Image, lambda im: ((im.array,), None), lambda _, children: Image(*children))


@partial(jax.jit, static_argnames=("n",))
def add(carry, stamp, n):
    image = carry[0]
    image[0:n] += stamp
    return (image,), None


@jax.jit
def paste(image: Image, stamp):
    image[2:4] = stamp
    return image


def render(stamps):
    (image,), _ = jax.lax.scan(partial(add, n=2), (Image(jnp.zeros(4)),), stamps)
    return paste(image, jnp.ones(2))


if __name__ == "__main__":
    print(render(jnp.ones((3, 2))).array)
