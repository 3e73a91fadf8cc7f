"""Equinox-style inference mode passed down as an argument: the model takes a key for its dropout, and its
`inference` flag is handed on as the dropout's `deterministic=` (snnax's and equinox's `inference=True` /
`deterministic=True`). The evaluation corrupts the inputs with a mask drawn from `key` and runs the model with the
same key but `inference=True`: the dropout returns its input and draws nothing, so the key is drawn from once.
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


def denoising_eval(w, x, key):
    corrupt = jax.random.bernoulli(key, 0.5, x.shape)
    y, keep = model(w, jnp.where(corrupt, 0.0, x), key, inference=True)
    return y, corrupt, keep


def main():
    w = jax.random.normal(jax.random.key(1), (64, 8))
    x = jax.random.normal(jax.random.key(2), (16, 64))
    y, corrupt, keep = denoising_eval(w, x, jax.random.key(0))
    assert keep is None, "inference mode: the dropout drew no mask"
    print("clean: evaluated", y.shape, "with", int(corrupt.sum()), "inputs corrupted")


if __name__ == "__main__":
    main()
