"""A `lax.scan` over sequences that builds position ids with `jnp.arange(mask.shape[0])`, a static length, and
zeroes the padded positions with the mask.
"""
import jax.numpy as jnp
from jax import lax


def positions(masks):
    def body(carry, mask):
        pos = jnp.arange(mask.shape[0]) * mask
        return carry + pos.sum(), jnp.sum(mask)

    return lax.scan(body, 0, masks)


if __name__ == "__main__":
    print(positions(jnp.array([[1, 1, 0], [1, 0, 0]])))
