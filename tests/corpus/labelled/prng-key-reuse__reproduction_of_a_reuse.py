"""haliax 1.3 tests/test_random.py (test_permutation), reduced: the data is drawn from a key, and then a draw from
the same key is reproduced by a third draw that the test asserts equal to it.

The reproduction is deliberate, but the draw it reproduces already repeats the data's numbers, and so does the
reproduction: both are findings, each at its own line (checked below: both equal the data).
"""
import jax
import jax.numpy as jnp


def perturbed(key):
    data = jax.random.uniform(key, (8,))
    noise = jax.random.uniform(key, (8,))  # expect: prng-key-reuse
    again = jax.random.uniform(key, (8,))  # expect: prng-key-reuse
    assert jnp.array_equal(noise, again)
    return data + 0.1 * noise, data, again


if __name__ == "__main__":
    out, data, again = perturbed(jax.random.key(0))
    if jnp.array_equal(again, data):
        print("SHARP BIT: the reproduced noise is the data itself, so out == 1.1 * data")
