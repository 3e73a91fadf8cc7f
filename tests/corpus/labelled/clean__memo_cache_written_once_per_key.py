"""A memo cache read at trace time: `chunk_size` returns `_CHUNKS[key]` when the key is there and otherwise
computes the value from the key and stores it. Each entry is written once, only while absent, so whatever a
trace read from the cache is the one value that key ever has: the compiled `scale` never goes stale (checked on
jax 0.10.2: the second shape compiles with its own entry, the first keeps giving the same numbers). The bug twin,
whose setter overwrites an entry after the trace, is `global-captured-in-jit__cache_entry_overwritten.py`.
"""
import jax
import jax.numpy as jnp

_CHUNKS = {}


def chunk_size(shape):
    try:
        key = tuple(shape)
    except TypeError:  # an unhashable shape: no caching
        key = None
    if key is not None and key in _CHUNKS:
        return _CHUNKS[key]
    n = max(1, shape[0] // 2)
    if key is not None:
        _CHUNKS[key] = n
    return n


@jax.jit
def scale(x):
    return x * chunk_size(x.shape)


if __name__ == "__main__":
    print(scale(jnp.ones(4)))
    print(scale(jnp.ones(6)))
    print(scale(jnp.ones(4)), _CHUNKS)
