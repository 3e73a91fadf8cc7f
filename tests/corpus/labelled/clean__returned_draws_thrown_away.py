"""A helper that builds a model and draws its initial weights from `key`, returning (spec, weights); the test keeps
only the spec (`spec, _ = init_model(key, dim)`) and then draws its inputs from the same key. The weights, the only
values computed from `key` in the helper, are thrown away, so no number drawn twice reaches anything (nflojax's
flow tests build conditioners this way). Kept, they would equal the inputs:
prng-key-reuse__returned_draws_kept.py.
"""
import jax
import jax.numpy as jnp


def init_model(key, dim):
    spec = {"dim": dim, "act": "tanh"}
    weights = jax.random.normal(key, (dim, dim))
    weights = weights / jnp.sqrt(dim)
    return spec, weights


def test_identity(key, dim):
    spec, _ = init_model(key, dim)
    x = jax.random.normal(key, (8, dim))
    assert x.shape[1] == spec["dim"]
    return x


if __name__ == "__main__":
    print("inputs drawn, weights discarded:", test_identity(jax.random.PRNGKey(0), 3).shape)
