"""JAX jit docs ("static arguments"): a list passed where `static_argnames` points.

Static arguments are hashed to key the cache; a list is not hashable, so the call raises ValueError.
"""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("axes",))
def reduce_sum(x, axes):
    return jnp.sum(x, axis=axes)


if __name__ == "__main__":
    x = jnp.ones((2, 3, 4))
    print(reduce_sum(x, axes=(0, 2)))
    print(reduce_sum(x, axes=[0, 2]))  # expect: jit-in-loop
