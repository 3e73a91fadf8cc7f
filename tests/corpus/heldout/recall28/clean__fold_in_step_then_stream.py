"""Deriving per-step keys with `jax.random.fold_in(base_key, step)`, then folding a stream number into the step
key for each use: the dropout key and the label-noise key differ.
"""
import jax
import jax.numpy as jnp


def train_step(params, x, base_key, step):
    step_key = jax.random.fold_in(base_key, step)
    keep = jax.random.bernoulli(jax.random.fold_in(step_key, 0), 0.5, x.shape)
    jitter = jax.random.bernoulli(jax.random.fold_in(step_key, 1), 0.5, x.shape)
    return params + jnp.sum(jnp.where(keep, x, 0.0)), keep, jitter


if __name__ == "__main__":
    _, keep, jitter = train_step(0.0, jnp.ones(32), jax.random.key(0), 7)
    if bool(jnp.all(keep == jitter)):
        print("SHARP BIT: the dropout mask equals the label noise mask")
