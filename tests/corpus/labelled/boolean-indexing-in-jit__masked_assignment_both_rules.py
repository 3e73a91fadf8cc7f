"""Sharp Bits: NumPy's `x[mask] = 0` inside jit is two sharp bits on one line: an in-place update
(TypeError) whose functional form `x.at[mask].set(0)` still has a traced boolean mask
(NonConcreteBooleanIndexError). The fix is `jnp.where(mask, 0, x)`.
"""
import jax
import jax.numpy as jnp


@jax.jit
def nan_to_zero(x):
    x[jnp.isnan(x)] = 0.0  # expect: in-place-update, boolean-indexing-in-jit
    return x


@jax.jit
def nan_to_zero_functional(x):
    return x.at[jnp.isnan(x)].set(0.0)  # expect: boolean-indexing-in-jit


if __name__ == "__main__":
    x = jnp.array([1.0, jnp.nan])
    try:
        nan_to_zero(x)
    except TypeError as e:
        print("TypeError:", str(e)[:60])
    print(nan_to_zero_functional(x))
