"""A per-example score mapped with `jax.vmap` over a name bound to `functools.partial(score, scale)`.

`vmap` calls `score` with the bound `scale` first and its own (batched, traced) arguments after it: `float(x @ w)`
asks a tracer for a Python number and raises ConcretizationTypeError. The twin
`clean__vmap_of_partial_unmapped_int` converts only what the partial and `in_axes=None` pass through.
"""
from functools import partial

import jax
import jax.numpy as jnp


def score(scale, w, x):
    return scale * float(x @ w)  # expect: host-conversion-in-jit


scaled = partial(score, 2.0)
batched = jax.vmap(scaled, in_axes=(None, 0))

if __name__ == "__main__":
    print(batched(jnp.ones(2), jnp.ones((3, 2))))
