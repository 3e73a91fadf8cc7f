"""Deriving per-step keys with `jax.random.fold_in(base_key, step)` in two places of a training step: the
dropout key and the label-smoothing noise key fold in the same step number, so they are one key.
"""
import jax
import jax.numpy as jnp


def train_step(params, x, base_key, step):
    drop_key = jax.random.fold_in(base_key, step)
    keep = jax.random.bernoulli(drop_key, 0.5, x.shape)
    noise_key = jax.random.fold_in(base_key, step)
    jitter = jax.random.bernoulli(noise_key, 0.5, x.shape)  # expect: prng-key-reuse
    return params + jnp.sum(jnp.where(keep, x, 0.0)), keep, jitter


if __name__ == "__main__":
    _, keep, jitter = train_step(0.0, jnp.ones(32), jax.random.key(0), 7)
    if bool(jnp.all(keep == jitter)):
        print("SHARP BIT: the dropout mask equals the label noise mask")
