"""A window length passed to a vmapped function with `in_axes=None` from eager code.

vmap passes unmapped arguments through as the caller gave them, so `n` is a Python int inside `window`: the
slice and the `jnp.zeros(n)` have static sizes (checked on jax 0.10.2: runs). Likewise static_argnums given
by a variable leaves the analysis unable to tell which parameters are traced, so it stays silent.
"""
from functools import partial

import jax
import jax.numpy as jnp

STATIC = (1,)


def window(x, n):
    return x[:n].sum() + jnp.zeros(n).sum()


@partial(jax.jit, static_argnums=STATIC)
def head(x, n):
    return jnp.ones(n) * x[:n]


if __name__ == "__main__":
    print(jax.vmap(window, in_axes=(0, None))(jnp.ones((2, 4)), 3), head(jnp.ones(4), 2))
