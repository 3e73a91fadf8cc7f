"""Shuffling features and labels with one key, as data loaders do: the same key gives the same permutation, so
row i of `x` stays with label i of `y`. Splitting the key here would break the pairing.
"""
import jax
import jax.numpy as jnp


def shuffled(key, x, y):
    x = jax.random.permutation(key, x)
    y = jax.random.permutation(key, y)
    return x, y


def sample_batch(key, x, y, batch_size):
    xb = jax.random.choice(key, x, (batch_size,), replace=False)
    yb = jax.random.choice(key, y, (batch_size,), replace=False)
    return xb, yb


if __name__ == "__main__":
    x = jnp.arange(10) * 10
    y = jnp.arange(10)
    xs, ys = shuffled(jax.random.PRNGKey(0), x, y)
    xb, yb = sample_batch(jax.random.PRNGKey(1), x, y, 4)
    assert bool(jnp.all(xs == ys * 10)) and bool(jnp.all(xb == yb * 10))
    print("rows and labels stay aligned")
