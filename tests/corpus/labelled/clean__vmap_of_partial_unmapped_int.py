"""A per-example score mapped with `jax.vmap` over `functools.partial(score, scale)` with `in_axes=(None, 0)`.

`in_axes` counts the arguments of the partial, not of `score`: its `None` leaves `repeats` (score's second
parameter) unmapped, so the Python int reaches `score` as it was passed and `int(repeats)` is fine, like
`float(scale)` on the value the partial binds (the twin of `host-conversion-in-jit__vmap_of_named_partial`).
"""
from functools import partial

import jax
import jax.numpy as jnp


def score(scale, repeats, x):
    return float(scale) * int(repeats) * jnp.sum(x)


batched = jax.vmap(partial(score, 2.0), in_axes=(None, 0))

if __name__ == "__main__":
    print(batched(3, jnp.ones((3, 2))))
