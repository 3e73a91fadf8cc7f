"""64-bit dtypes in a program that never enables x64: JAX silently computes in 32 bits."""

import jax.numpy as jnp
import numpy as np


def integrate(n):
    x = jnp.linspace(0.0, 1.0, n, dtype=jnp.float64)
    return jnp.trapezoid(x**2, x)


def integrate_right(n):
    # float32 asked for explicitly; or enable x64 where the program starts:
    # jax.config.update("jax_enable_x64", True)
    x = jnp.linspace(0.0, 1.0, n, dtype=jnp.float32)
    host = np.linspace(0.0, 1.0, n, dtype=np.float64)  # NumPy keeps float64: fine
    return jnp.trapezoid(x**2, x), host.sum()


if __name__ == "__main__":
    print(integrate(1001), integrate_right(1001))
