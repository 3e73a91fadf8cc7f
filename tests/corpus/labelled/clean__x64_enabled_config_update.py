"""A program that enables x64 where it starts: float64 requests are honoured."""
import jax
import jax.numpy as jnp

jax.config.update("jax_enable_x64", True)


def integrate(n):
    x = jnp.linspace(0.0, 1.0, n, dtype=jnp.float64)
    return jnp.trapezoid(x ** 2, x)


if __name__ == "__main__":
    y = integrate(1001)
    assert y.dtype == jnp.float64, y.dtype
    print(y, jnp.float64(1e-12).dtype, jnp.ones(2).astype("int64").dtype)
