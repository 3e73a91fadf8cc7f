"""A solver class jits its step once in `__init__` (`self._solve = jax.jit(...)`) and times each call in another
method without waiting: JAX dispatches asynchronously, so the clock stops before the device finishes
(held-out set recall24: `self.step = nnx.jit(self._step)` timed in a trainer).
"""
import time

import jax
import jax.numpy as jnp


def _power_iteration(m, v):
    v = (m @ m) @ v
    return v / jnp.linalg.norm(v)


class Solver:
    def __init__(self):
        self._solve = jax.jit(_power_iteration)

    def timed(self, m, v):
        t0 = time.perf_counter()
        out = self._solve(m, v)  # expect: unblocked-timing
        return out, time.perf_counter() - t0


if __name__ == "__main__":
    s = Solver()
    m, v = jnp.ones((2000, 2000)), jnp.ones(2000)
    s.timed(m, v)[0].block_until_ready()
    out, dt = s.timed(m, v)
    if not out.is_ready():
        print(f"SHARP BIT: solve 'took' {dt * 1e3:.2f} ms but its result is not ready")
