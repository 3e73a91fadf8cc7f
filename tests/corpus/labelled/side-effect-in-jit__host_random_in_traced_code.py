"""NumPy's and Python's random generators in traced code run once, at trace time.

`jax.jit` runs the Python body once and keeps the compiled program: `np.random.normal(...)` there is computed
once, and its numbers are a constant of the program, so every call adds the same "noise" (run: `a == b`). A scan
body is traced once for the whole loop: every step of `rollout` adds the same number. `random.random()` from the
standard library is the same.
"""
import random

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def noisy(x):
    return x + np.random.normal(size=x.shape)  # expect: side-effect-in-jit


@jax.jit
def jitter(x):
    return x * random.random()  # expect: side-effect-in-jit


def rollout(xs):
    def body(carry, x):
        step = x + np.random.uniform()  # expect: side-effect-in-jit
        return carry + step, step

    return jax.lax.scan(body, 0.0, xs)


if __name__ == "__main__":
    x = jnp.zeros(3)
    a, b = noisy(x), noisy(x)
    print(bool((a == b).all()), bool(jitter(jnp.ones(())) == jitter(jnp.ones(()))))
    _, steps = rollout(jnp.zeros(4))
    print(steps)  # four equal numbers
