"""A key split and mapped, piece by piece, over a function that never reads its key draws nothing.

transformer-flows' `evaluate` (round 21): `batch_loss_fn` splits the key and maps `partial(single_loss_fn, model,
policy=policy)` over the pieces, and `single_loss_fn` takes `key` for a uniform signature but never reads it, so
calling `evaluate` with the same validation key every step draws nothing from it. The same through
`jax.vmap(f, in_axes=...)` without a partial.
"""
from functools import partial

import jax
import jax.numpy as jnp


def single_loss(w, key, x, scale=1.0):
    return scale * jnp.sum((w * x) ** 2)


def batch_loss(w, key, xs):
    keys = jax.random.split(key, xs.shape[0])
    fn = partial(single_loss, w, scale=2.0)
    return jnp.mean(jax.vmap(fn)(keys, xs))


def batch_loss_mapped(w, key, xs):
    keys = jax.random.split(key, xs.shape[0])
    return jnp.mean(jax.vmap(single_loss, in_axes=(None, 0, 0))(w, keys, xs))


def train(w, xs, key):
    valid_key, noise_key = jax.random.split(key)
    losses = []
    for step in range(3):
        noise = jax.random.normal(jax.random.fold_in(noise_key, step), xs.shape)
        losses.append(batch_loss(w, valid_key, xs + noise) + batch_loss_mapped(w, valid_key, xs))
    return losses


if __name__ == "__main__":
    w, xs = jnp.ones(3), jnp.ones((4, 3))
    assert float(batch_loss(w, jax.random.PRNGKey(1), xs)) == float(batch_loss(w, jax.random.PRNGKey(2), xs))
    print("the loss does not depend on the key:", train(w, xs, jax.random.PRNGKey(0)))
