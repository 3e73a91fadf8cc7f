"""Value-dependent shapes under jit: sizes must be known at trace time (ConcretizationTypeError, TypeError,
IndexError)."""

from functools import partial

import jax
import jax.numpy as jnp


@jax.jit
def positive_indices(x):
    (idx,) = jnp.nonzero(x > 0)
    return idx


@jax.jit
def first_n(x, n):
    return x[:n]


@jax.jit
def positive_indices_right(x):
    (idx,) = jnp.nonzero(x > 0, size=x.shape[0], fill_value=-1)
    return idx


@partial(jax.jit, static_argnames="n")
def first_n_right(x, n):
    return x[:n]


@jax.jit
def window_right(x, start):
    return jax.lax.dynamic_slice(x, (start,), (4,))
