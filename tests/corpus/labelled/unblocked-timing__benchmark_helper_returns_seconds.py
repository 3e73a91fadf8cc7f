"""JAX FAQ ("Benchmarking JAX code"): a benchmark helper that times one call of a jitted function and
returns the seconds; the result is dropped before anyone waits for it.
"""
import time

import jax
import jax.numpy as jnp


@jax.jit
def gram(x):
    return jnp.tanh(x.T @ x) @ x.T


def time_gram(x):
    gram(x).block_until_ready()
    begin = time.perf_counter()
    g = gram(x)  # expect: unblocked-timing
    end = time.perf_counter()
    return end - begin, g


if __name__ == "__main__":
    seconds, g = time_gram(jnp.ones((1500, 1500)) / 1500)
    if not g.is_ready():
        print(f"SHARP BIT: result not ready when the clock stopped ({seconds * 1e3:.2f} ms)")
