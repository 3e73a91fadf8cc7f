"""A key split and handed, piece by piece, to `vmap(partial(f, w))` where `f` draws dropout from its key.

The twin of `clean__vmapped_partial_ignores_its_key` (transformer-flows' `evaluate`, round 21): here the mapped
loss draws a dropout mask from each piece, so calling `batch_loss` with the same key every step applies the same
masks every step.
"""
from functools import partial

import jax
import jax.numpy as jnp


def single_loss(w, key, x, rate=0.5):
    keep = jax.random.bernoulli(key, 1.0 - rate, x.shape)
    return jnp.sum((w * jnp.where(keep, x, 0.0)) ** 2), keep


def batch_loss(w, key, xs):
    keys = jax.random.split(key, xs.shape[0])
    fn = partial(single_loss, w, rate=0.5)
    losses, masks = jax.vmap(fn)(keys, xs)
    return jnp.mean(losses), masks


def train(w, xs, key):
    step_key, noise_key = jax.random.split(key)
    masks = []
    for step in range(3):
        noise = jax.random.normal(jax.random.fold_in(noise_key, step), xs.shape)
        _, mask = batch_loss(w, step_key, xs + noise)  # expect: prng-key-reuse
        masks.append(mask)
    return masks


if __name__ == "__main__":
    masks = train(jnp.ones(3), jnp.ones((4, 3)), jax.random.PRNGKey(0))
    if all(bool(jnp.array_equal(masks[0], m)) for m in masks[1:]):
        print("SHARP BIT: every step drew the same dropout masks:", masks[0].astype(int).tolist())
