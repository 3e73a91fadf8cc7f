"""The bug twin of clean__draws_only_reach_raising_call.py: after checking that the metric refuses to run without a
key, the test computes it on the same inputs and targets, which are equal arrays (one key, one shape): the error
term and the probe term are exactly zero, so the test measures nothing (run: it prints 0.0).
"""
import jax
import jax.numpy as jnp
import pytest


def sobolev(x, target, key=None):
    if key is None:
        raise ValueError("a stochastic Sobolev metric needs a key")
    probe = jax.random.normal(key, x.shape)
    return jnp.mean((x - target) ** 2) + jnp.mean(probe * (x - target)) ** 2


def test_stochastic_metric():
    key = jax.random.key(0)
    inputs = jax.random.normal(key, (10, 8))
    targets = jax.random.normal(key, (10, 8))  # expect: prng-key-reuse
    with pytest.raises(ValueError):
        sobolev(inputs, targets)
    value = sobolev(inputs, targets, key=jax.random.key(1))
    assert value >= 0.0
    return value


if __name__ == "__main__":
    print("metric on equal arrays:", test_stochastic_metric())
