"""Donating a NumPy input (JAX copies it to the device, the NumPy array stays) and reading only `.shape` after."""
import jax
import jax.numpy as jnp
import numpy as np


def scale(x):
    return x * 2.0


scale_jit = jax.jit(scale, donate_argnums=0)

if __name__ == "__main__":
    host = np.ones(3, dtype=np.float32)
    y = scale_jit(host)
    print(host.sum(), y)
    x = jnp.ones(3)
    z = scale_jit(x)
    print(z, x.shape, x.dtype)
