"""Sharp Bits: `@partial(jax.jit, static_argnames="threshold")`: the threshold is static, the data is not.

`x[x > threshold]` still has a value-dependent size: NonConcreteBooleanIndexError.
"""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames="threshold")
def count_and_sum_above(x, threshold=0.5):
    above = x[x > threshold]  # expect: boolean-indexing-in-jit
    return above.shape[0], above.sum()


if __name__ == "__main__":
    print(count_and_sum_above(jnp.linspace(0.0, 1.0, 5), threshold=0.5))
