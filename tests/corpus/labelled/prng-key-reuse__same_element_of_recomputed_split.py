"""JAX PRNG docs: `split` is a pure function of its key, so `split(key)[1]` written twice is the same key twice.

A test that rebuilds a trainer's key sequence by hand takes the same element for both draws by mistake.
"""
import jax
import jax.numpy as jnp


def expected_noise(rng):
    first = jax.random.uniform(jax.random.split(rng)[1], ())
    second = jax.random.uniform(jax.random.split(rng)[1], ())  # expect: prng-key-reuse
    return first, second


if __name__ == "__main__":
    first, second = expected_noise(jax.random.PRNGKey(0))
    if bool(jnp.all(first == second)):
        print("SHARP BIT: both draws identical:", float(first), float(second))
