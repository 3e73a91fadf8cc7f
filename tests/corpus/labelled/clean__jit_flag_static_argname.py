"""The fix of `traced-control-flow__jit_flag_with_python_default`: the flag is a static argument, so a caller that
passes it gets a Python bool at trace time (one compilation per value).
"""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("compute_extra",))
def smooth(x, compute_extra: bool = True):
    y = jnp.cumsum(x) / jnp.arange(1, x.shape[0] + 1)
    if compute_extra:
        y = y - y.mean()
    return y


if __name__ == "__main__":
    print(smooth(jnp.arange(4.0)))
    print(smooth(jnp.arange(4.0), compute_extra=False))
