"""Host randomness and clocks where they run on every call, or do not reach the computation.

Under `jax.grad(f)(w)` alone JAX traces `f` anew on each call, so NumPy draws anew each time; a function handed to
`jax.debug.callback` runs on the host on every call; a clock read inside a jitted function that only times its
trace (printed once, on purpose) bakes nothing the program computes; data drawn with NumPy in eager code is data.
"""
import time

import jax
import jax.numpy as jnp
import numpy as np


def eager_grad(w):
    def loss(w):
        return jnp.sum(w * np.random.normal(size=w.shape))

    return jax.grad(loss)(w)


@jax.jit
def logged(x):
    start = time.perf_counter()
    jax.debug.callback(lambda v: print(v, np.random.normal()), x)
    print("traced in", time.perf_counter() - start)
    return x * 2


def batch(n):
    return jnp.asarray(np.random.normal(size=(n, 3)))


if __name__ == "__main__":
    w = jnp.ones(3)
    print(bool((eager_grad(w) == eager_grad(w)).all()))  # False: fresh noise on each call
    logged(batch(2))
