"""Timing a jitted step that hands its state back *and* computes: the clock stops before the matmul is done.

(A step that only returns its arguments has nothing to wait for; this one does real work.)
"""
import time

import jax
import jax.numpy as jnp


@jax.jit
def step(state, a):
    return state, jnp.tanh(jnp.tanh(a @ a) @ a)


if __name__ == "__main__":
    a = jnp.ones((1500, 1500)) / 1500
    state = {"step": jnp.zeros(())}
    jax.block_until_ready(step(state, a))  # compile outside the timing
    start = time.perf_counter()
    state, out = step(state, a)  # expect: unblocked-timing
    elapsed = time.perf_counter() - start
    if not out.is_ready():
        print(f"SHARP BIT: result not ready when the clock stopped ({elapsed * 1e3:.2f} ms)")
