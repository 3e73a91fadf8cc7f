"""A run-wide step counter `itertools.count()` advanced with `next(STEP)` inside a jitted update to index the
learning-rate warm-up: `next` runs once at trace time, so every call uses step 0.
"""
import itertools

import jax
import jax.numpy as jnp

STEP = itertools.count()


@jax.jit
def update(w, g):
    step = next(STEP)  # expect: side-effect-in-jit
    lr = 0.1 * jnp.minimum(1.0, (step + 1) / 10)
    return w - lr * g, lr


if __name__ == "__main__":
    w = jnp.zeros(2)
    rates = []
    for _ in range(4):
        w, lr = update(w, jnp.ones(2))
        rates.append(float(lr))
    if len(set(rates)) == 1:
        print("SHARP BIT: the warm-up never advances:", rates)
