"""Simulated annealing with `lax.while_loop`: the body closes over the caller's key and proposes
`x + normal(key, ...)` on every iteration, so every proposal is the same step.
"""
import jax
import jax.numpy as jnp
from jax import lax


def anneal(x0, key, n_steps=20):
    def cond(carry):
        i, _ = carry
        return i < n_steps

    def body(carry):
        i, x = carry
        proposal = x + 0.1 * jax.random.normal(key, x.shape)  # expect: prng-key-reuse
        return i + 1, jnp.where(jnp.sum(proposal**2) < jnp.sum(x**2), proposal, x)

    return lax.while_loop(cond, body, (0, x0))[1]


if __name__ == "__main__":
    x0 = jnp.ones(2)
    step = 0.1 * jax.random.normal(jax.random.key(0), (2,))
    out = anneal(x0, jax.random.key(0))
    delta = (out - x0) / step
    if bool(jnp.allclose(delta, jnp.round(delta[0]), atol=1e-3)):
        print("SHARP BIT: the walk moved along one proposal only:", delta)
