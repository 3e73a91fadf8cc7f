"""The bug twin of `clean__memo_cache_written_once_per_key.py`: `set_chunk_size` overwrites an entry of the cache
that `chunk_size` reads at trace time. The compiled `scale` keeps the value it read (checked on jax 0.10.2: after
`set_chunk_size((4,), 5)` it still multiplies by 2).
"""
import jax
import jax.numpy as jnp

_CHUNKS = {}


def chunk_size(shape):
    key = tuple(shape)
    if key in _CHUNKS:  # expect: global-captured-in-jit
        return _CHUNKS[key]
    return max(1, shape[0] // 2)


def set_chunk_size(shape, n):
    _CHUNKS[tuple(shape)] = n


@jax.jit
def scale(x):
    return x * chunk_size(x.shape)


if __name__ == "__main__":
    print(scale(jnp.ones(4)))
    set_chunk_size((4,), 5)
    print(scale(jnp.ones(4)), "stale: the cache now says", _CHUNKS[(4,)])
