"""The bug twin of `clean__inverse_of_random_transform_same_key.py`: between the random rotation and its
inverse, the code adds noise drawn from the rotation's key, and dithers with a function that is no inverse of
the rotation, again with that key. Both draw from the key that drew the rotation's signs: the noise's first
words are the signs' bits (correlated numbers; `jax_debug_key_reuse` raises here).
"""
import jax
import jax.numpy as jnp


def structured_rotation(x, key):
    signs = jax.random.rademacher(key, x.shape[-1:]).astype(x.dtype)
    return x * signs, x.shape


def inverse_structured_rotation(y, key, shape):
    return y * jax.random.rademacher(key, shape[-1:]).astype(y.dtype)


def dither(y, key):
    return y + jax.random.uniform(key, y.shape, minval=-0.01, maxval=0.01)


def noisy_round_trip(x, key):
    y, shape = structured_rotation(x, key)
    noise = 0.01 * jax.random.normal(key, y.shape)  # expect: prng-key-reuse
    y = dither(y + noise, key)  # expect: prng-key-reuse
    return inverse_structured_rotation(y, key, shape)


if __name__ == "__main__":
    jax.config.update("jax_debug_key_reuse", True)
    try:
        noisy_round_trip(jnp.ones((4, 8)), jax.random.key(0))
    except Exception as error:  # KeyReuseError
        print("SHARP BIT:", type(error).__name__)
