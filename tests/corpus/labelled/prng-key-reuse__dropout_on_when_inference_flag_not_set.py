"""Equinox-style inference mode passed down as an argument, but left at its default: the denoising step
corrupts the inputs with a mask drawn from `key` and runs the model with the same key and `inference=False`, so
the model's dropout draws `bernoulli(key, 0.5, x.shape)` again: the dropout keeps exactly the inputs the
corruption zeroed.
"""
import jax
import jax.numpy as jnp


def dropout(x, key, rate, deterministic=False):
    if deterministic:
        return x, None
    keep = jax.random.bernoulli(key, 1 - rate, x.shape)
    return jnp.where(keep, x / (1 - rate), 0.0), keep


def model(w, x, key, inference=False):
    h, keep = dropout(x, key, 0.5, deterministic=inference)
    return jnp.tanh(h @ w), keep


def denoising_step(w, x, key):
    corrupt = jax.random.bernoulli(key, 0.5, x.shape)
    y, keep = model(w, jnp.where(corrupt, 0.0, x), key, inference=False)  # expect: prng-key-reuse
    return y, corrupt, keep


def main():
    w = jax.random.normal(jax.random.key(1), (64, 8))
    x = jax.random.normal(jax.random.key(2), (16, 64))
    y, corrupt, keep = denoising_step(w, x, jax.random.key(0))
    if bool(jnp.all(keep == corrupt)):
        print("SHARP BIT: the dropout mask is the corruption mask (one key drew both)", y.shape)


if __name__ == "__main__":
    main()
