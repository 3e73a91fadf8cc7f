"""JAX FAQ ("Benchmarking JAX code"): converting the result to a Python float (or a NumPy array) waits for the
device, so a timing that does so before the clock stops measures the computation.
"""
import time

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def loss(w, x):
    return jnp.mean(jnp.tanh(x @ w) ** 2)


if __name__ == "__main__":
    w, x = jnp.ones((300, 10)), jnp.ones((2000, 300))
    loss(w, x).block_until_ready()
    t0 = time.time()
    value = float(loss(w, x))
    t1 = time.time()
    grads = np.asarray(jax.grad(loss)(w, x))
    t2 = time.time()
    print(f"loss {value:.3f} in {t1 - t0:.4f} s, grads {grads.shape} in {t2 - t1:.4f} s")
