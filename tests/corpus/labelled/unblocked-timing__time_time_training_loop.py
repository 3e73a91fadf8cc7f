"""JAX FAQ ("Benchmarking JAX code"): timing ten training steps with `time.time()`; the step returns a
pytree `(params, loss)` and nothing waits for the last one before the clock stops.
"""
import time

import jax
import jax.numpy as jnp


def update(w, x):
    h = jnp.tanh(x @ w)
    loss = jnp.mean(h @ w.T)
    return w - 1e-4 * (x.T @ h), loss


step = jax.jit(update)


def benchmark(w, x, n=10):
    jax.block_until_ready(step(w, x))
    start = time.time()
    for _ in range(n):
        w, loss = step(w, x)  # expect: unblocked-timing
    seconds = time.time() - start
    return seconds, loss


if __name__ == "__main__":
    x = jnp.ones((1500, 1500)) / 1500
    seconds, loss = benchmark(jnp.eye(1500), x)
    if not loss.is_ready():
        print(f"SHARP BIT: last loss not ready when the clock stopped ({seconds:.4f} s)")
