"""`jnp.nonzero` of a module-level constant mask inside `jit`.

The mask is known, but under jit every jnp operation is staged: `nonzero` compares the mask with zero as a traced
operation and then needs the count, so even a constant (or NumPy) operand raises ConcretizationTypeError. Compute
the indices once outside the function (or with `np.nonzero`), or give `size=`.
"""
import jax
import jax.numpy as jnp

KEEP = jnp.array([True, False, True, True])


@jax.jit
def select(x):
    (idx,) = jnp.nonzero(KEEP)  # expect: dynamic-shape
    return x[idx]


if __name__ == "__main__":
    print(select(jnp.arange(4.0)))
