"""Python loops inside jit are unrolled: compile time grows with the trip count.

A `while` on a traced value cannot even be traced (TracerBoolConversionError).
"""

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def running_sum(x):
    total = jnp.zeros(())
    for i in range(1000):  # expect: python-loop-in-jit
        total = total + x[i % x.shape[0]]
    return total


@partial(jax.jit, static_argnums=1)
def power_iteration(m, steps):
    v = jnp.ones(m.shape[0])
    for _ in range(steps):  # expect: python-loop-in-jit
        v = m @ v
        v = v / jnp.linalg.norm(v)
    return v


@jax.jit
def halve_until_small(x):
    while jnp.abs(x).max() > 1.0:  # expect: traced-control-flow
        x = x / 2
    return x


@jax.jit
def mlp(params, x):
    for w, b in params:  # a loop over layers is fine: it unrolls over a fixed structure
        x = jax.nn.relu(x @ w + b)
    return x


@jax.jit
def running_sum_right(x):
    return lax.fori_loop(0, 1000, lambda i, total: total + x[i % x.shape[0]], jnp.zeros(()))


@jax.jit
def halve_until_small_right(x):
    return lax.while_loop(lambda x: jnp.abs(x).max() > 1.0, lambda x: x / 2, x)
