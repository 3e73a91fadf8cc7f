"""Globals read under jit are baked in at trace time: later changes are silently ignored."""

import jax
import jax.numpy as jnp

LEARNING_RATE = 0.1  # assigned once: a constant, fine
temperature = 1.0
config = {"use_relu": False}


@jax.jit
def softmax(logits):
    return jax.nn.softmax(logits / temperature)


@jax.jit
def activation(x):
    return jax.nn.relu(x) if config["use_relu"] else jnp.tanh(x)


@jax.jit
def sgd(w, g):
    return w - LEARNING_RATE * g


def anneal(step):
    global temperature
    temperature = 1.0 / (1 + step)


print(activation(jnp.ones(3)))  # traced here, with use_relu False baked in
config["use_relu"] = True
print(activation(jnp.ones(3)))  # still tanh: the change is ignored


@jax.jit
def softmax_right(logits, temperature):
    return jax.nn.softmax(logits / temperature)
