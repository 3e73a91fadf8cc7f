"""A primitive-style implementation gets its static parameters through `functools.partial(impl, **params)` before
`jax.vmap`, which maps only the positional operands: `n` and `freeze` stay Python values, so the slice `x[:n]`
and `if freeze:` are decided while tracing.
"""
from functools import partial

import jax
import jax.numpy as jnp


def _impl(x, n, freeze):
    head = x[:n]
    if freeze:
        return jnp.zeros_like(head)
    return 2 * head


def apply(x, **params):
    return jax.vmap(partial(_impl, **params))(x)


if __name__ == "__main__":
    print(apply(jnp.ones((3, 5)), n=2, freeze=False))
