"""JAX FAQ ("Benchmarking JAX code"): an epoch timer inside a training function; the per-epoch time is taken
right after the last step was dispatched.
"""
import time

import jax
import jax.numpy as jnp


@jax.jit
def sgd(w, x):
    return w - 1e-4 * x.T @ jnp.tanh(x @ w)


def train(w, x, epochs=2):
    times = []
    for _ in range(epochs):
        t_start = time.perf_counter()
        w = sgd(w, x)  # expect: unblocked-timing
        times.append(time.perf_counter() - t_start)
    return w, times


if __name__ == "__main__":
    x = jnp.ones((1500, 1500)) / 1500
    sgd(jnp.eye(1500), x).block_until_ready()
    w, times = train(jnp.eye(1500), x)
    if not w.is_ready():
        print("SHARP BIT: last epoch's result not ready when its clock stopped", times)
