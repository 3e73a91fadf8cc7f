"""The bug twin of clean__static_argnums_given_as_a_set.py: the set names only `cls`, so `n` is traced and
`jax.random.normal(key, (n, 2))` gets a shape that is a tracer: TypeError under jit.
"""
from functools import partial

import jax


class Radius:
    @classmethod
    @partial(jax.jit, static_argnums={0})
    def sample(cls, scale, key, n):
        return scale * jax.random.normal(key, (n, 2))  # expect: dynamic-shape


if __name__ == "__main__":
    try:
        Radius.sample(1.0, jax.random.key(0), 4)
    except TypeError as exc:
        print("SHARP BIT:", type(exc).__name__)
