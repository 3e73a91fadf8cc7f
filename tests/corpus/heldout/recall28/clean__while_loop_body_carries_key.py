"""Simulated annealing with `lax.while_loop`: the key is part of the carry and split on every iteration, so
each proposal is a new step.
"""
import jax
import jax.numpy as jnp
from jax import lax


def anneal(x0, key, n_steps=20):
    def cond(carry):
        i, _, _ = carry
        return i < n_steps

    def body(carry):
        i, x, key = carry
        key, sub = jax.random.split(key)
        proposal = x + 0.1 * jax.random.normal(sub, x.shape)
        return i + 1, jnp.where(jnp.sum(proposal**2) < jnp.sum(x**2), proposal, x), key

    return lax.while_loop(cond, body, (0, x0, key))[1]


if __name__ == "__main__":
    x0 = jnp.ones(2)
    out = anneal(x0, jax.random.key(0))
    print(out)
