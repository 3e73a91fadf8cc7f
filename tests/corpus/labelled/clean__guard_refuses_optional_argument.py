"""maxtext `MaxEngine.prefill` (round 12): a jitted function that refuses an optional argument with a guard that only
raises, `if existing_prefix: raise ValueError(...)`.

Called without the argument, `existing_prefix` is None, a Python value at trace time, so the test is False and the
function runs. Called with an array, it raises either way (TracerBoolConversionError under jit instead of the
intended ValueError): no call that works is broken, so the guard is not reported.
"""
from typing import Optional

import jax
import jax.numpy as jnp


@jax.jit
def prefill(params, tokens, existing_prefix: Optional[jax.Array] = None):
    if existing_prefix:
        raise ValueError("We don't know what to do with existing_prefix")
    return jnp.tanh(tokens @ params)


if __name__ == "__main__":
    print(prefill(jnp.eye(3), jnp.ones((2, 3))))
