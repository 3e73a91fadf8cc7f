"""absl-style flags on a module-level object: a function changes the very flag a jitted function read.

`set_learning_rate` runs after `update` was traced, so the compiled update keeps the old learning rate.
"""
from types import SimpleNamespace

import jax
import jax.numpy as jnp

FLAGS = SimpleNamespace(learning_rate=0.1, verbose=False)


@jax.jit
def update(w, g):
    return w - FLAGS.learning_rate * g  # expect: global-captured-in-jit


def set_learning_rate(value):
    FLAGS.learning_rate = value


if __name__ == "__main__":
    w, g = jnp.ones(2), jnp.ones(2)
    print(update(w, g))
    set_learning_rate(0.5)
    print("SHARP BIT: learning rate 0.5 ignored, still", update(w, g))
