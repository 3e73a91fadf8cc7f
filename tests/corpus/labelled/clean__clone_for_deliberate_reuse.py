"""A test that reproduces a library's internal split on purpose, saying so with `jax.random.clone` (JAX's way to
mark a deliberate reuse: the key reuse checker accepts it)."""
import jax
import jax.numpy as jnp


def sample_with_internal_split(key):
    _, sub = jax.random.split(key)
    return jax.random.uniform(sub, ())


def test_reproduces_internal_split():
    key = jax.random.key(3)
    _, next_key = jax.random.split(key)
    expected = jax.random.uniform(next_key, ())
    actual = sample_with_internal_split(jax.random.clone(key))
    assert bool(jnp.allclose(actual, expected))


if __name__ == "__main__":
    jax.config.update("jax_debug_key_reuse", True)
    test_reproduces_internal_split()
    print("passed")
