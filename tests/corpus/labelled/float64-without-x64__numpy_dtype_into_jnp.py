"""Loading data with NumPy float64 into JAX: `jnp.asarray(data, dtype=np.float64)` is float32 without x64.

The NumPy array itself keeps float64 (not flagged); the JAX copy does not.
"""
import numpy as np
import jax.numpy as jnp


def load():
    data = np.linspace(0.0, 1.0, 5, dtype=np.float64)
    return data, jnp.asarray(data, dtype=np.float64)  # expect: float64-without-x64


if __name__ == "__main__":
    host, device = load()
    print(f"SHARP BIT: numpy {host.dtype}, jax {device.dtype}")
