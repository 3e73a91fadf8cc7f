"""The bug twin of `clean__timed_solver_tests_its_own_error`: the loop runs a fixed number of steps and never
looks at what they return.

Nothing waits for the device inside the timed region, so the clock stops once the steps are queued: it measures
their dispatch, not the solve.
"""
import time

import jax
import jax.numpy as jnp


@jax.jit
def update(x, err):
    y = x - 0.1 * jnp.tanh(x @ x.T) @ x
    return y, jnp.linalg.norm(y - x)


def solve(x, maxiter=50):
    err = jnp.inf
    start = time.time()
    for i in range(maxiter):
        x, err = update(x, err)  # expect: unblocked-timing
    return x, time.time() - start


if __name__ == "__main__":
    x = jnp.ones((256, 256)) * 0.01
    solve(x)
    x, took = solve(x)
    t = time.time()
    x.block_until_ready()
    print(f"SHARP BIT: timed {took:.5f} s, the device still had {time.time() - t:.5f} s of work queued")
