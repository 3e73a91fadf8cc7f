"""Sharp Bits / "Dynamic shapes": `jnp.nonzero(mask, size=k)` gives static-shape integer indices.
"""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames="max_hits")
def first_hits(x, threshold, max_hits=4):
    (idx,) = jnp.nonzero(x > threshold, size=max_hits, fill_value=0)
    valid = jnp.arange(max_hits) < jnp.sum(x > threshold)
    return jnp.where(valid, x[idx], 0.0)


@jax.jit
def masked_sum(x, mask):
    return jnp.sum(x, where=mask)


if __name__ == "__main__":
    x = jnp.array([0.1, 0.9, 0.3, 0.8])
    print(first_hits(x, 0.5), masked_sum(x, x > 0.5))
