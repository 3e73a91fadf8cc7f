"""Update rules of a project's training library (a helper module).

`apply_grads` is jitted with `donate_argnums=0`: the caller's parameter buffers are reused for the result.
"""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, donate_argnums=0)
def apply_grads(params, grads, lr=0.1):
    return params - lr * grads


def clip_by_norm(g, limit):
    norm = jnp.linalg.norm(g)
    if norm > limit:  # expect: traced-control-flow
        return g * (limit / norm)
    return g


def clip_by_norm_where(g, limit):
    norm = jnp.linalg.norm(g)
    return jnp.where(norm > limit, g * (limit / norm), g)
