"""JAX FAQ ("Benchmarking JAX code"): the same timed loop that prints its progress, waiting for the last step
before the clock stops.
"""
import time

import jax
import jax.numpy as jnp


@jax.jit
def step(x):
    return jnp.tanh(x @ x.T) @ x


def bench(batches):
    step(batches[0]).block_until_ready()  # compile first
    outs = []
    start = time.perf_counter()
    for i, batch in enumerate(batches):
        print(f"batch {i}")
        outs.append(step(batch))
    jax.block_until_ready(outs)
    seconds = time.perf_counter() - start
    return seconds, outs


if __name__ == "__main__":
    seconds, outs = bench([jnp.ones((1500, 1500)) / 1500 for _ in range(3)])
    if not outs[-1].is_ready():
        print(f"SHARP BIT: the last step was not ready when the clock stopped ({seconds * 1e3:.2f} ms)")
