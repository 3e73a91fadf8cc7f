"""A decorator hands the module's one key to the function it wraps on every call; the function draws its noise from
it, so every call adds the same noise.
"""
import jax
import jax.numpy as jnp

KEY = jax.random.PRNGKey(42)


def with_noise(fn):
    def wrapper(x):
        return fn(KEY, x)  # expect: prng-key-reuse
    return wrapper


@with_noise
def jitter(key, x):
    return x + 0.1 * jax.random.normal(key, x.shape)


if __name__ == "__main__":
    a = jitter(jnp.zeros(3))
    b = jitter(jnp.zeros(3))
    if bool(jnp.all(a == b)):
        print("SHARP BIT: two calls, one noise:", a)
