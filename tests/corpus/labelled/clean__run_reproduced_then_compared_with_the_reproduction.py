"""tinydiffeq 2.6.1 tests/test_markov.py (test_discrete_deterministic_path_and_save_modes): one key runs the
simulation three times, the second run is asserted equal to the first, and the third (under `jax.jit`) is
asserted equal to the second.

Each run reproduces the one it is compared with: that is what the same key is for. The third run is not compared
with the first, but its numbers are the second run's, which the test already checked against the first.
"""
import jax
import jax.numpy as jnp


def simulate(p, x0, key, n):
    steps = jax.random.bernoulli(key, p, (n,))
    return x0 + jnp.cumsum(jnp.where(steps, 1, -1))


def test_paths():
    key = jax.random.key(0)
    path = simulate(0.5, 0, key, 6)
    endpoint = simulate(0.5, 0, key, 6)[-1]
    assert int(path[-1]) == int(endpoint)
    jitted = jax.jit(simulate, static_argnums=3)(0.5, 0, key, 6)[-1]
    assert jitted == endpoint


if __name__ == "__main__":
    test_paths()
