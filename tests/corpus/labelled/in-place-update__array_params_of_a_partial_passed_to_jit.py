"""The bug twin of clean__pallas_refs_annotated_as_arrays_kernel_named_by_partial.py: the partial goes to
`jax.jit`, not to Pallas, so the parameters are arrays and `stage[i] = v` raises TypeError.
"""
import functools

import jax
import jax.numpy as jnp
from jax import lax


def kernel(x_ref: jax.Array, stage: jax.Array, *, rows: int, scale: float) -> jax.Array:
    def body(i, carry):
        stage[i] = x_ref[i] * scale  # expect: in-place-update
        return carry

    lax.fori_loop(0, rows, body, 0)
    return stage


def scaled(x):
    call = functools.partial(kernel, rows=x.shape[0], scale=2.0)
    return jax.jit(call)(x, jnp.zeros_like(x))


if __name__ == "__main__":
    try:
        scaled(jnp.arange(8.0).reshape(2, 4))
    except TypeError as exc:
        print("SHARP BIT:", type(exc).__name__)
