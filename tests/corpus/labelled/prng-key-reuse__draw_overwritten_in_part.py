"""The bug twin of clean__draw_overwritten_whole.py: only the first row of `x` is replaced, the other rows keep
the normal numbers, which equal `y`'s (same key, same shape): `x @ y` multiplies a matrix by itself.
"""
import jax
import jax.numpy as jnp


def matrices(buf, size):
    key = jax.random.PRNGKey(42)
    x = jax.random.normal(key, (size, size))
    y = jax.random.normal(key, (size, size))  # expect: prng-key-reuse
    x = x.at[0].set(buf[0, :size])
    return x, y


if __name__ == "__main__":
    x, y = matrices(jnp.eye(4), 3)
    print("rows 1.. equal:", bool((x[1:] == y[1:]).all()))
