"""The bug twin of clean__fold_in_streams_past_a_helpers_split.py: the stream constant is 1, and
`fold_in(key, 1)` is the second key of `split(key)`, which the helper draws from: the same numbers.
"""
import jax

NOISE_SAMPLE_STREAM = 1


def env_init(key):
    a, b = jax.random.split(key)
    return jax.random.normal(a, (2,)), jax.random.normal(b, (2,))


def wrapper_init(key):
    noise_key = jax.random.fold_in(key, NOISE_SAMPLE_STREAM)
    inner = env_init(key)  # expect: prng-key-reuse
    return inner, jax.random.normal(noise_key, (2,))


if __name__ == "__main__":
    (a, b), noise = wrapper_init(jax.random.key(0))
    print("SHARP BIT: same numbers:", bool((noise == b).all()))
