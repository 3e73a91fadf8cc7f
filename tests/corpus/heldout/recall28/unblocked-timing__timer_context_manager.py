"""A benchmark helper `class Timer` reads `time.perf_counter()` in `__enter__` and `__exit__`; the jitted step
inside `with Timer() as t:` is not waited for, so the timer stops before the work is done.
"""
import time

import jax
import jax.numpy as jnp


class Timer:
    def __enter__(self):
        self.start = time.perf_counter()
        return self

    def __exit__(self, *exc):
        self.elapsed = time.perf_counter() - self.start


@jax.jit
def step(a):
    return jnp.tanh(jnp.tanh(a @ a) @ a)


if __name__ == "__main__":
    a = jnp.ones((1500, 1500)) / 1500
    step(a).block_until_ready()
    with Timer() as t:
        out = step(a)  # expect: unblocked-timing
    if not out.is_ready():
        print(f"SHARP BIT: result not ready when the timer stopped ({t.elapsed * 1e3:.2f} ms)")
