"""JAX FAQ ("Benchmarking JAX code"): `timeit.default_timer` around a jitted, vmapped function bound to a name.
"""
import timeit

import jax
import jax.numpy as jnp


def row_norm_softmax(row):
    return jax.nn.softmax(row @ jnp.ones((row.shape[0], row.shape[0])) / row.shape[0])


batched = jax.jit(jax.vmap(row_norm_softmax))

if __name__ == "__main__":
    xs = jnp.ones((1500, 1500))
    batched(xs).block_until_ready()
    start = timeit.default_timer()
    probs = batched(xs)  # expect: unblocked-timing
    stop = timeit.default_timer()
    if not probs.is_ready():
        print(f"SHARP BIT: result not ready when the clock stopped ({(stop - start) * 1e3:.2f} ms)")
