"""A `lax.scan` over sequences that builds position ids with `jnp.arange(n_valid)`, `n_valid` counted from the
step's mask: inside the scan body the count is traced and `arange` needs a concrete length.
"""
import jax.numpy as jnp
from jax import lax


def positions(masks):
    def body(carry, mask):
        n_valid = jnp.sum(mask)
        pos = jnp.arange(n_valid)  # expect: dynamic-shape
        return carry + pos.sum(), pos.shape[0]

    return lax.scan(body, 0, masks)


if __name__ == "__main__":
    print(positions(jnp.array([[1, 1, 0], [1, 0, 0]])))
