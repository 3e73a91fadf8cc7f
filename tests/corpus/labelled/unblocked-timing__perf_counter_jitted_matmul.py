"""JAX FAQ ("Benchmarking JAX code" / asynchronous dispatch): timing a jitted matmul without waiting for it.

The call returns as soon as the work is queued, so the clock measures dispatch only.
"""
import time

import jax
import jax.numpy as jnp


@jax.jit
def layer(a):
    return jnp.tanh(jnp.tanh(a @ a) @ a)


if __name__ == "__main__":
    a = jnp.ones((1500, 1500)) / 1500
    layer(a).block_until_ready()  # compile outside the timing
    start = time.perf_counter()
    out = layer(a)  # expect: unblocked-timing
    elapsed = time.perf_counter() - start
    if not out.is_ready():
        print(f"SHARP BIT: result not ready when the clock stopped ({elapsed * 1e3:.2f} ms)")
