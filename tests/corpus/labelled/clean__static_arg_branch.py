"""JIT docs "Marking arguments as static": branching on a static Python flag is fine.
"""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("training", "rate"))
def dropout(x, key, training, rate=0.5):
    if not training or rate == 0.0:
        return x
    keep = jax.random.bernoulli(key, 1.0 - rate, x.shape)
    return jnp.where(keep, x / (1.0 - rate), 0.0)


@partial(jax.jit, static_argnums=(1,))
def activation(x, kind):
    if kind == "relu":
        return jax.nn.relu(x)
    elif kind == "gelu":
        return jax.nn.gelu(x)
    return jnp.tanh(x)


if __name__ == "__main__":
    key = jax.random.PRNGKey(0)
    x = jnp.ones(4)
    print(dropout(x, key, training=True), dropout(x, key, training=False))
    print(activation(x, "gelu"))
