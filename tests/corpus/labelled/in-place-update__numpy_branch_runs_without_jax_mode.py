"""The twin of clean__numpy_branch_after_jax_mode_return: with `JAX_MODE = False` the early return is not taken,
and the loop assigns into a JAX array: TypeError.
"""
import jax.numpy as jnp

JAX_MODE = False


def cumulative(x):
    if JAX_MODE:
        return jnp.cumsum(x)
    out = jnp.zeros_like(x)
    total = 0.0
    for i in range(x.shape[0]):
        total += x[i]
        out[i] = total  # expect: in-place-update
    return out


if __name__ == "__main__":
    print(cumulative(jnp.arange(4.0)))
