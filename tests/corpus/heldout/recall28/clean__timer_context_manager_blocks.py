"""A benchmark helper `class Timer` reads `time.perf_counter()` in `__enter__` and `__exit__`; inside the `with`
block the jitted step's result is waited for with `block_until_ready()` before the timer stops.
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
    a = jnp.ones((300, 300)) / 300
    step(a).block_until_ready()
    with Timer() as t:
        out = step(a).block_until_ready()
    print(f"{t.elapsed * 1e3:.2f} ms", out.is_ready())
