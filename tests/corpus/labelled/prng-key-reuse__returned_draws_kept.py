"""The twin of clean__returned_draws_thrown_away.py: the test keeps the weights the helper drew from `key`
(`spec, weights = init_model(key, dim)`) and draws its inputs from the same key: the inputs are the first rows of
the weights (times a constant), so the model is tested on inputs correlated with its own parameters.
"""
import jax
import jax.numpy as jnp


def init_model(key, dim):
    spec = {"dim": dim, "act": "tanh"}
    weights = jax.random.normal(key, (dim, dim))
    weights = weights / jnp.sqrt(dim)
    return spec, weights


def test_forward(key, dim):
    spec, weights = init_model(key, dim)
    x = jax.random.normal(key, (dim, dim))  # expect: prng-key-reuse
    return jnp.tanh(x @ weights), spec


if __name__ == "__main__":
    key = jax.random.PRNGKey(0)
    _, weights = init_model(key, 3)
    x = jax.random.normal(key, (3, 3))  # expect: prng-key-reuse
    print("SHARP BIT: inputs equal the weights times sqrt(dim):", bool(jnp.allclose(weights * jnp.sqrt(3), x)))
