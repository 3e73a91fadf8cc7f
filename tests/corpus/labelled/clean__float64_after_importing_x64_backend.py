"""A program asks for float64 without enabling x64 itself: the project module it imports at module level turns
`jax_enable_x64` on when imported (the flag is process-wide), so the request is honoured."""
import jax.numpy as jnp

import clean__x64_backend_module as backend


def integrate(n):
    x = jnp.linspace(0.0, 1.0, n, dtype=jnp.float64)
    return jnp.trapezoid(x ** 2, x)


if __name__ == "__main__":
    y = integrate(1001)
    assert y.dtype == jnp.float64, y.dtype
    print(y, backend.EPS)
