"""A benchmark of dispatch overhead (as flax's nnx_graph_overhead.py): the timed jitted steps compute nothing,
one has an empty body and one hands its arguments back, so there is no device work for the clock to wait for.
"""
import time

import jax
import jax.numpy as jnp


@jax.jit
def empty_step(params, opt_state):
    pass


@jax.jit
def identity_step(params, opt_state):
    """Returns its inputs: measures the cost of passing the pytree in and out."""
    return params, opt_state


if __name__ == "__main__":
    params = {f"layer{i}": jnp.ones((8, 8)) for i in range(4)}
    opt_state = {"count": jnp.zeros(())}
    empty_step(params, opt_state)
    start = time.perf_counter()
    for _ in range(100):
        empty_step(params, opt_state)
    empty_seconds = time.perf_counter() - start
    start = time.perf_counter()
    for _ in range(100):
        params, opt_state = identity_step(params, opt_state)
    identity_seconds = time.perf_counter() - start
    print(f"per call: empty {empty_seconds * 1e4:.1f} us, identity {identity_seconds * 1e4:.1f} us")
