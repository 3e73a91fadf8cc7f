"""Project script: the library's donating `apply_grads` result is rebound to `params` at once, and the jitted
step clips with `clip_by_norm_where`, which needs no Python decision; the eager check uses the
`if`-based `clip_by_norm` on concrete arrays.
"""
import jax
import jax.numpy as jnp

from trainlib.steps import apply_grads, clip_by_norm, clip_by_norm_where


@jax.jit
def clipped(grads):
    return clip_by_norm_where(grads, 1.0)


if __name__ == "__main__":
    params = jnp.ones(4)
    grads = jnp.full(4, 3.0)
    params = apply_grads(params, clipped(grads))
    print(params, clip_by_norm(grads, 1.0))
