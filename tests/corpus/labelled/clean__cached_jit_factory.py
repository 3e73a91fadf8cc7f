"""JAX jit docs ("caching"): a factory that builds a jitted function per configuration, cached with
`functools.lru_cache`, so a loop asking for the same configuration gets the same compiled function.
"""
import functools

import jax
import jax.numpy as jnp

trace_count = 0


def count_trace(x):
    global trace_count
    trace_count += 1
    return x


@functools.lru_cache(maxsize=None)
def make_scaler(factor):
    return jax.jit(lambda x: count_trace(x) * factor)


if __name__ == "__main__":
    for _ in range(4):
        make_scaler(2.0)(jnp.ones(3))
    assert trace_count == 1, trace_count
