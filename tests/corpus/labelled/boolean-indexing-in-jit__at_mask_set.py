"""Sharp Bits: `.at[mask].set(v)` with a traced boolean mask inside `@jax.jit` (ReLU written NumPy style).

Raises NonConcreteBooleanIndexError in JAX 0.10; `jnp.where(mask, v, x)` is the traced form.
"""
import jax
import jax.numpy as jnp


@jax.jit
def leaky_relu(x, slope=0.01):
    negative = x < 0
    return x.at[negative].set(slope * x[negative])  # expect: boolean-indexing-in-jit


if __name__ == "__main__":
    print(leaky_relu(jnp.array([-2.0, 1.0])))
