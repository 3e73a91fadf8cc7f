"""Flax-style `rngs={"dropout": key}` dict: two dropout layers both read `rngs["dropout"]`, so they drop
exactly the same units.
"""
import jax
import jax.numpy as jnp


def dropout(key, x, rate):
    keep = jax.random.bernoulli(key, 1.0 - rate, x.shape)
    return jnp.where(keep, x / (1.0 - rate), 0.0)


def apply(params, x, rngs, rate=0.5):
    h = jax.nn.relu(x @ params["w1"])
    h = dropout(rngs["dropout"], h, rate)
    g = jax.nn.relu(h @ params["w2"])
    g = dropout(rngs["dropout"], g, rate)  # expect: prng-key-reuse
    return g


if __name__ == "__main__":
    params = {"w1": jnp.eye(8), "w2": jnp.eye(8)}
    x = jnp.ones((1, 8))
    out = apply(params, x, {"dropout": jax.random.PRNGKey(3)})
    first = dropout(jax.random.PRNGKey(3), jnp.ones((1, 8)), 0.5)
    if bool(jnp.all((out != 0) == (first != 0))):
        print("SHARP BIT: the second dropout kept exactly the units the first one kept:", first != 0)
