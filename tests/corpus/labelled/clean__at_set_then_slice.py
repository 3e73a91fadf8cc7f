"""Sharp Bits: "In-place updates" done right: `.at[].set` returns a copy, then ordinary slicing.
"""
import jax
import jax.numpy as jnp


@jax.jit
def causal_shift(x):
    padded = jnp.zeros((x.shape[0] + 1,) + x.shape[1:], x.dtype)
    padded = padded.at[1:].set(x)
    return padded[:-1]


@jax.jit
def scatter_counts(idx, n=8):
    counts = jnp.zeros(n, jnp.int32).at[idx].add(1)
    return counts[: n // 2], counts[n // 2:]


if __name__ == "__main__":
    print(causal_shift(jnp.arange(4.0)))
    print(scatter_counts(jnp.array([1, 1, 5])))
