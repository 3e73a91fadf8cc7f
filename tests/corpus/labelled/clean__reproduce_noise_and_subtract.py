"""A sampler test in the blackjax style: the sampler adds noise drawn from `key`; the test draws the same noise
again with the same key and subtracts it to recover the deterministic part, then checks that part.
"""
import jax
import jax.numpy as jnp
import numpy as np


def noisy_step(key, position, grad, step_size):
    return position + step_size * grad + jnp.sqrt(2 * step_size) * jax.random.normal(key, position.shape)


def test_drift():
    key = jax.random.key(0)
    position, grad, step_size = jnp.ones(3), jnp.full(3, 0.5), 0.1
    moved = noisy_step(key, position, grad, step_size)
    # Reproduce the noise term with the same key to recover the drift.
    noise = jnp.sqrt(2 * step_size) * jax.random.normal(key, position.shape)
    drift = moved - noise
    np.testing.assert_allclose(drift, position + step_size * grad, rtol=1e-6)


if __name__ == "__main__":
    test_drift()
    print("passed")
