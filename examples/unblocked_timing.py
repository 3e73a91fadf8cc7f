"""JAX dispatches asynchronously: a clock stopped right after a JAX call measures the dispatch, not the compute."""

import time

import jax
import jax.numpy as jnp


@jax.jit
def layer(a):
    return jnp.tanh(a @ a)


a = jnp.ones((1000, 1000))
layer(a).block_until_ready()  # compile first

start = time.perf_counter()
out = layer(a)
print("dispatch only:", time.perf_counter() - start)

start = time.perf_counter()
out = layer(a).block_until_ready()
print("compute:", time.perf_counter() - start)
