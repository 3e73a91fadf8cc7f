"""traced-control-flow: a Python `if` on a traced value inside `jit`, next to its correct twins."""
from functools import partial

import jax
import jax.numpy as jnp


@jax.jit
def safe_log(x):
    if x > 0:
        return jnp.log(x)
    return jnp.zeros_like(x)


@jax.jit
def safe_log_where(x):
    # jnp.where computes both sides and picks element by element: it works on tracers
    positive = x > 0
    return jnp.where(positive, jnp.log(jnp.where(positive, x, 1.0)), 0.0)


@partial(jax.jit, static_argnames="activation")
def layer(x, w, activation="relu"):
    # a static argument is a Python value while tracing: branching on it is fine, and so is branching on shapes
    if activation == "relu" and x.ndim == 2:
        return jax.nn.relu(x @ w)
    return jnp.tanh(x @ w)
