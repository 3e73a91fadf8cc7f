"""Boolean masks under jit: the result's shape would depend on values (NonConcreteBooleanIndexError)."""

import jax
import jax.numpy as jnp


@jax.jit
def clip_negatives(x):
    x = x.at[x < 0].set(0)
    return x


@jax.jit
def sum_of_large(x, threshold):
    large = x > threshold
    return x[large].sum()


def eager_filter(x):
    return x[x > 0]  # fine outside jit: the values are known


@jax.jit
def clip_negatives_right(x):
    return jnp.where(x < 0, 0, x)  # an int 0 keeps x's dtype, as .at[].set does


@jax.jit
def sum_of_large_right(x, threshold):
    return jnp.where(x > threshold, x, 0).sum()
