"""Sharp Bits: "Pure functions": pulling batches from a module-level iterator inside a jitted step.

`next(batches)` runs once, at trace time: the first batch is baked into the compiled step as a constant.
"""
import jax
import jax.numpy as jnp
import numpy as np

rng = np.random.default_rng(0)
batches = iter([rng.normal(size=(4, 2)) for _ in range(10)])


@jax.jit
def step(w):
    x = next(batches)  # expect: side-effect-in-jit
    return w - 0.1 * jnp.mean(x, axis=0)


if __name__ == "__main__":
    w = jnp.zeros(2)
    for _ in range(3):
        w = step(w)
    left = len(list(batches))
    if left != 7:
        print("SHARP BIT: batches left after 3 steps:", left, "(7 expected)")
