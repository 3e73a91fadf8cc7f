"""A loss clipped at a cap bound by `functools.partial`, jitted as `jax.jit(partial(f, cap=...))`.

The partial's keyword is a Python float (its value is baked into the trace), but the other arguments are traced
by the jit around the partial: `if err > cap:` asks a tracer for its truth value and raises
TracerBoolConversionError. The twin `clean__jit_of_partial_keyword_static` tests only the bound keyword.
"""
from functools import partial

import jax
import jax.numpy as jnp


def clipped_loss(w, x, cap):
    err = jnp.sum((x @ w) ** 2)
    if err > cap:  # expect: traced-control-flow
        return cap
    return err


loss = jax.jit(partial(clipped_loss, cap=10.0))

if __name__ == "__main__":
    print(loss(jnp.ones(2), jnp.ones((3, 2))))
