"""The twin of `clean__ahead_of_time_lowering_with_key`: here the jitted function is called, not lowered, so it
draws from `key`; the later draw on the same key repeats its numbers exactly.
"""
import jax
import jax.numpy as jnp


def simulate(x, key):
    return x + jax.random.normal(key, x.shape)


def run(x):
    key = jax.random.PRNGKey(0)
    warmup = jax.jit(simulate)(x, key)
    noise = jax.random.normal(key, x.shape)  # expect: prng-key-reuse
    return warmup, noise


if __name__ == "__main__":
    warmup, noise = run(jnp.ones(4))
    if bool(jnp.allclose(warmup - 1.0, noise)):
        print("SHARP BIT: the warm-up run drew the same noise as the later draw:", noise)
