"""Host post-processing: `np.array(device_result)` is a writable NumPy copy; in-place updates and boolean
masks on it are ordinary NumPy.
"""
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def scores(w, x):
    return x @ w


def postprocess(w, x, floor=0.0):
    host = np.array(scores(w, x))
    host[host < floor] = floor
    host[0] += 1.0
    ranks = np.empty_like(host, dtype=np.int64)
    ranks[np.argsort(-host)] = np.arange(host.shape[0])
    return host, ranks


if __name__ == "__main__":
    print(postprocess(jnp.array([1.0, -1.0]), jnp.array([[1.0, 2.0], [3.0, 1.0], [0.0, 0.5]])))
