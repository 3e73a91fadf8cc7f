"""An in-place-style solver step with donation, followed by a residual against the old iterate."""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, donate_argnums=(0,))
def jacobi(x, a, b):
    d = jnp.diag(a)
    return (b - (a @ x - d * x)) / d


if __name__ == "__main__":
    a = jnp.array([[4.0, 1.0], [1.0, 3.0]])
    b = jnp.array([1.0, 2.0])
    x = jnp.zeros(2)
    x_next = jacobi(x, a, b)
    residual = jnp.linalg.norm(x_next - x)  # expect: donated-buffer-reuse
    print(residual)
