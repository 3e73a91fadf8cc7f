"""JAX FAQ ("asynchronous dispatch"): eager `jax.numpy` operations are asynchronous too; timing a Gram matrix
with `time.monotonic()` and stopping the clock right after the call measures only the dispatch.
"""
import time

import jax
import jax.numpy as jnp

if __name__ == "__main__":
    m = jax.random.normal(jax.random.key(0), (1500, 1500)) / 40
    jnp.tanh(m @ m.T).block_until_ready()  # compile outside the timing
    t0 = time.monotonic()
    g = jnp.tanh(m @ m.T)  # expect: unblocked-timing
    t1 = time.monotonic()
    if not g.is_ready():
        print("SHARP BIT: Gram matrix not ready when the clock stopped", f"({t1 - t0:.4f} s)")
