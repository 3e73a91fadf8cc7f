"""A logging decorator factory `@log_output("loss")` stacked under `@jax.jit`: the wrapper uses
`jax.debug.print`, which is staged into the program and prints the value on every call.
"""
import functools

import jax
import jax.numpy as jnp


def log_output(tag):
    def decorate(fn):
        @functools.wraps(fn)
        def wrapper(*args):
            out = fn(*args)
            jax.debug.print(tag + " {}", out)
            return out
        return wrapper
    return decorate


@jax.jit
@log_output("loss")
def mse(pred, y):
    return jnp.mean((pred - y) ** 2)


if __name__ == "__main__":
    mse(jnp.ones(3), jnp.zeros(3))
    mse(jnp.ones(3), jnp.ones(3)).block_until_ready()
