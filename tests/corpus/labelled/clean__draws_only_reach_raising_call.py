"""JAX PRNG docs, in a test (neojax-operators' Sobolev-metric tests): inputs and targets are drawn from one key
(equal arrays), but they only reach a call the test expects to raise (a stochastic metric without its key): the
call refuses them before computing anything, no result comes back, so no number drawn is ever read. The same holds
for a module built from the key only to be called inside `pytest.raises`.
"""
import jax
import jax.numpy as jnp
import pytest


def sobolev(x, target, key=None):
    if key is None:
        raise ValueError("a stochastic Sobolev metric needs a key")
    probe = jax.random.normal(key, x.shape)
    return jnp.mean((x - target) ** 2) + jnp.mean(probe * (x - target)) ** 2


class Encoder:
    def __init__(self, key, width, code_dim=None):
        self.w = jax.random.normal(key, (width,))
        self.code_dim = code_dim

    def __call__(self, x, code=None):
        if code is not None and self.code_dim is None:
            raise ValueError("code_dim was not provided")
        return x @ self.w


def test_stochastic_metric_needs_a_key():
    key = jax.random.key(0)
    inputs = jax.random.normal(key, (10, 8))
    targets = jax.random.normal(key, (10, 8))
    with pytest.raises(ValueError):
        sobolev(inputs, targets)


def test_code_needs_code_dim():
    key = jax.random.key(0)
    x = jax.random.uniform(key, (12, 8))
    code = jnp.ones(4)
    encoder = Encoder(key, 8)
    with pytest.raises(ValueError, match="code_dim"):
        encoder(x, code=code)


if __name__ == "__main__":
    test_stochastic_metric_needs_a_key()
    test_code_needs_code_dim()
    print("both refused before computing")
