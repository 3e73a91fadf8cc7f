"""Sharp Bits: "In-place updates", eager code, `from jax import numpy as jnp`.

Building a positional-encoding table row by row; the eager item assignment raises TypeError.
"""
import math

from jax import numpy as jnp


def positional_encoding(length, dim):
    table = jnp.zeros((length, dim))
    for pos in range(length):
        for i in range(0, dim, 2):
            angle = pos / math.pow(10000.0, i / dim)
            table[pos, i] = math.sin(angle)  # expect: in-place-update
            table[pos, i + 1] = math.cos(angle)  # expect: in-place-update
    return table


if __name__ == "__main__":
    print(positional_encoding(4, 8).shape)
