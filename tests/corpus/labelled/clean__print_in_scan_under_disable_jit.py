"""Debugging a scan body with `print` inside `with jax.disable_jit():` (brainpy's controls tests).

Under `disable_jit` `lax.scan` runs its body eagerly, once per element, on concrete arrays: `print` shows the
running sums, not tracers.
"""
import jax
import jax.numpy as jnp


def cumsum(total, x):
    total = total + x
    print(total)
    return total, total


if __name__ == "__main__":
    with jax.disable_jit():
        final, partial_sums = jax.lax.scan(cumsum, 0, jnp.arange(4))
    print(final)
