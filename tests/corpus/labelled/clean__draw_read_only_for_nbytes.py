"""A draw read only for its size in bytes (jinns's memory profile: `jax.random.normal(key, shape).nbytes`).

The second draw repeats the numbers of `observations` (same key, sampler and shape), but only `.nbytes` and
`.itemsize` are read from it: they depend on the shape and dtype alone, so no repeated number reaches a result.
"""
import jax


def profile(key, n):
    observations = jax.random.normal(key, (n, 3))
    size = jax.random.normal(key, (n, 3)).nbytes
    width = jax.random.uniform(key, (n,)).itemsize
    return observations, size, width


if __name__ == "__main__":
    observations, size, width = profile(jax.random.PRNGKey(0), 5)
    assert size == observations.nbytes == 60 and width == 4
    print("ok:", size, width)
