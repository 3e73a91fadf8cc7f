"""A helper that only reads what a key is (round 36's plasmax and tinax: `getattr(key, "dtype", None)` and its
shape, to insist on a scalar typed key) draws nothing from it: the split after it is the key's first use.
"""
import jax


def _validate_typed_key(key):
    dtype = getattr(key, "dtype", None)
    if dtype is None or getattr(key, "shape", None) != () or not jax.dtypes.issubdtype(dtype, jax.dtypes.prng_key):
        raise ValueError("key must be a scalar typed key")


def init(key):
    _validate_typed_key(key)
    step_key, noise_key = jax.random.split(key)
    return jax.random.normal(step_key), jax.random.normal(noise_key)


if __name__ == "__main__":
    print("two independent draws:", init(jax.random.key(0)))
