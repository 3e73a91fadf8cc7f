"""NumPy habit `x[...] = v` (fill the whole array in place) on a JAX array inside `jax.jit`.

Writing through `[...]` is how a mutable reference (`jax.new_ref`) is written, but `normalise` is called with an
array it cannot change: JAX raises TypeError.
"""
import jax
import jax.numpy as jnp


@jax.jit
def normalise(weights):
    weights[...] = weights / weights.sum()  # expect: in-place-update
    return weights


if __name__ == "__main__":
    print(normalise(jnp.arange(1.0, 4.0)))
