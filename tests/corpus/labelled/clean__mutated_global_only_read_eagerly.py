"""Sharp Bits: "Pure functions": a mutable global is fine when only eager code reads it; the jitted
function receives the value as an argument.
"""
import jax
import jax.numpy as jnp

history = []
learning_rate = 0.1


@jax.jit
def sgd(w, g, lr):
    return w - lr * g


def train(w, steps=3):
    global learning_rate
    for _ in range(steps):
        w = sgd(w, 2 * w, learning_rate)
        history.append(float(jnp.sum(w)))
        learning_rate *= 0.5
    return w


if __name__ == "__main__":
    print(train(jnp.ones(2)), history)
