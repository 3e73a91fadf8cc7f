"""absl-style flags (as dm-haiku's imagenet example): `main` sets a logging flag before training, a different
attribute from the flags the jitted code reads, so nothing the trace captured changes.
"""
from types import SimpleNamespace

import jax
import jax.numpy as jnp

FLAGS = SimpleNamespace(learning_rate=0.1, weight_decay=1e-4, alsologtostderr=False)


@jax.jit
def update(w, g):
    return w - FLAGS.learning_rate * (g + FLAGS.weight_decay * w)


def main():
    FLAGS.alsologtostderr = True
    w, g = jnp.ones(2), jnp.ones(2)
    for _ in range(3):
        w = update(w, g)
    print(w)


if __name__ == "__main__":
    main()
