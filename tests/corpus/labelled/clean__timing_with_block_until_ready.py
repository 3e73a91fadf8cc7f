"""JAX FAQ ("Benchmarking JAX code"): the documented way: warm up, then wait for the result before the clock
stops, with `.block_until_ready()` or `jax.block_until_ready` on a pytree.
"""
import time

import jax
import jax.numpy as jnp


@jax.jit
def stats(x):
    return x.mean(0), x.std(0)


if __name__ == "__main__":
    x = jnp.ones((1000, 500))
    jax.block_until_ready(stats(x))
    start = time.perf_counter()
    mean, std = jax.block_until_ready(stats(x))
    elapsed = time.perf_counter() - start
    t0 = time.perf_counter()
    y = jnp.dot(x, x.T)
    y.block_until_ready()
    t1 = time.perf_counter()
    assert mean.is_ready() and y.is_ready()
    print(f"{elapsed:.4f} s, {t1 - t0:.4f} s")
