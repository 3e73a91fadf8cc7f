"""Sharp Bits: "Pure functions": globals that are constants (assigned once, never mutated) are fine in jit.
"""
import math

import jax
import jax.numpy as jnp

EPS = 1e-6
NUM_CLASSES = 10
LOG_2PI = math.log(2 * math.pi)
LABEL_NAMES = ("cat", "dog", "bird")


@jax.jit
def gaussian_nll(x, mu, log_sigma):
    var = jnp.exp(2 * log_sigma) + EPS
    return 0.5 * jnp.sum(LOG_2PI + jnp.log(var) + (x - mu) ** 2 / var)


@jax.jit
def cross_entropy(logits, labels):
    one_hot = jax.nn.one_hot(labels, NUM_CLASSES)
    return -jnp.mean(jnp.sum(one_hot * jax.nn.log_softmax(logits), axis=-1))


@jax.jit
def three_way(logits):
    return logits[..., : len(LABEL_NAMES)]


if __name__ == "__main__":
    print(gaussian_nll(jnp.ones(3), jnp.zeros(3), jnp.zeros(3)))
    print(cross_entropy(jnp.zeros((2, NUM_CLASSES)), jnp.array([1, 2])), three_way(jnp.ones(5)))
