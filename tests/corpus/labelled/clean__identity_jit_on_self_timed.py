"""A trainer keeps `self._replicate = jax.jit(lambda s: s)` (in real code with `out_shardings=`: a copy onto the
mesh) and logs how long set-up took after calling it: no bug, the compiled function computes nothing, so there is
no device work for the clock to wait for (mlip's training loop; the same as a jitted identity called by name).
"""
import time

import jax
import jax.numpy as jnp


class Trainer:
    def __init__(self):
        self._replicate = jax.jit(lambda s: s)

    def setup(self, state):
        start = time.perf_counter()
        self.state = self._replicate(state)
        return time.perf_counter() - start


if __name__ == "__main__":
    print(Trainer().setup({"w": jnp.ones(3)}) >= 0)
