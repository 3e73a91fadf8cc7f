"""Clean twin of print-in-jit__module_object_called_in_jit: the layer logs with `jax.debug.print`, which prints
the values on every call of the jitted forward pass.
"""
import functools

import jax
import jax.numpy as jnp


class Block:
    def __init__(self, scale):
        self.scale = scale

    def __call__(self, x):
        h = jnp.tanh(self.scale * x)
        jax.debug.print("hidden {h}", h=h)
        return h


@functools.partial(jax.jit, static_argnums=0)
def forward(block, x):
    return block(x) + 1.0


if __name__ == "__main__":
    block = Block(2.0)
    for _ in range(2):
        forward(block, jnp.ones(3))
