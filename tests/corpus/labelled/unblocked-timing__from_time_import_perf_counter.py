"""JAX FAQ ("Benchmarking JAX code"): `from time import perf_counter` and an expression statement whose
result is not even kept: the clock stops while the device is still computing.
"""
from time import perf_counter

import jax.numpy as jnp

if __name__ == "__main__":
    a = jnp.ones((1500, 1500)) / 1500
    jnp.matmul(jnp.tanh(a @ a), a).block_until_ready()  # compile outside the timing
    tic = perf_counter()
    jnp.matmul(jnp.tanh(a @ a), a)  # expect: unblocked-timing
    toc = perf_counter()
    jnp.matmul(jnp.tanh(a @ a), a).block_until_ready()
    waited = perf_counter() - toc
    if toc - tic < waited / 5:
        print(f"SHARP BIT: timed {(toc - tic) * 1e3:.2f} ms, {waited * 1e3:.2f} ms when waited for")
