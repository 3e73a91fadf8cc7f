"""NumPy float64 on the host and float32 on the device: nothing asks JAX for 64 bits."""
import numpy as np
import jax.numpy as jnp


def summarize(values):
    host = np.asarray(values, dtype=np.float64)
    device = jnp.asarray(host, dtype=jnp.float32)
    return host.astype(np.float64).sum(), device.sum(), device.dtype == jnp.float64


if __name__ == "__main__":
    print(summarize([1.0, 2.0, 3.0]))
