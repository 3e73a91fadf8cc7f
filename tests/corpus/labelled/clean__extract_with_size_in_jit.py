"""Sharp Bits / "Dynamic shapes": static-size alternatives to boolean indexing: `jnp.extract(..., size=)`,
`jnp.mean(..., where=)`, and `jnp.compress(..., size=)`. (Without `size=`, `jnp.compress` fails under jit
in JAX 0.10 even for a concrete NumPy condition.)
"""
import jax
import jax.numpy as jnp
import numpy as np

EVEN_COLUMNS = np.array([True, False, True, False])


@jax.jit
def first_positives(x):
    return jnp.extract(x > 0, x, size=3, fill_value=0.0)


@jax.jit
def positive_mean(x):
    return jnp.mean(x, where=x > 0)


@jax.jit
def even_columns(x):
    return jnp.compress(EVEN_COLUMNS, x, axis=1, size=2)


if __name__ == "__main__":
    x = jnp.array([[-1.0, 2.0, 3.0, -4.0]])
    print(first_positives(x[0]), positive_mean(x), even_columns(x))
