"""JAX jit docs ("static arguments"): a model config kept in a dict and passed by name where
`functools.partial(jax.jit, static_argnames=("config",))` expects a hashable value.

Static arguments are hashed to key the compilation cache: the dict raises at the call (ValueError: Non-hashable
static arguments are not supported, on jax 0.10.2).
"""
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnames=("config",))
def forward(x, config):
    return jnp.tanh(x * config["gain"]) + config["bias"]


if __name__ == "__main__":
    config = {"gain": 1.5, "bias": 0.1}
    print(forward(jnp.ones(3), config=config))  # expect: jit-in-loop
