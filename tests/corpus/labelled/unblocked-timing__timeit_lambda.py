"""JAX FAQ ("Benchmarking JAX code"): `timeit.timeit(lambda: f(x))` of a JAX call that is never waited for.

Each timed call only queues the work; the blocked twin below shows how long the computation takes.
"""
import timeit

import jax.numpy as jnp

x = jnp.ones((1200, 1200)) / 1200
x.block_until_ready()

if __name__ == "__main__":
    jnp.dot(x, x).block_until_ready()
    dispatch = timeit.timeit(lambda: jnp.dot(x, x), number=1)  # expect: unblocked-timing
    compute = timeit.timeit(lambda: jnp.dot(x, x).block_until_ready(), number=1)
    if dispatch < compute / 5:
        print(f"SHARP BIT: timed {dispatch * 1e3:.2f} ms, {compute * 1e3:.2f} ms when waited for")
