"""The bug twin: the second block's inputs, drawn from the same seed, are compared with the first block's outputs,
which are still alive: the two "independent" samples are the same numbers, so their difference is zero."""
import jax
import jax.numpy as jnp
from jax import vmap


def forward(u, low):
    return low + 2.0 * u


def spread():
    first = vmap(lambda key: jax.random.uniform(key))(jax.random.split(jax.random.PRNGKey(42), 8))
    x = vmap(lambda u: forward(u, 0.0))(first)
    second = vmap(lambda key: jax.random.uniform(key))(jax.random.split(jax.random.PRNGKey(42), 8))  # expect: prng-key-reuse
    y = vmap(lambda u: forward(u, 0.0))(second)
    return jnp.abs(x - y).max()


print(spread())
