"""Sharp Bits: "Pure functions": a learning-rate schedule that writes a global with `global`.

`sgd_update` (bare `@jit`) captured the first value; `set_learning_rate` has no effect on it.
"""
import jax.numpy as jnp
from jax import jit

learning_rate = 0.1


def set_learning_rate(value):
    global learning_rate
    learning_rate = value


@jit
def sgd_update(w, g):
    return w - learning_rate * g  # expect: global-captured-in-jit


if __name__ == "__main__":
    w = jnp.ones(2)
    print(sgd_update(w, jnp.ones(2)))
    set_learning_rate(0.0)
    print("SHARP BIT: still steps with lr=0.1:", sgd_update(w, jnp.ones(2)))
