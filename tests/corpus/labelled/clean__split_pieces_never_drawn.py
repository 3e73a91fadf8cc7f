"""A key whose split pieces reach only steps that draw nothing (fdtdx's `Recorder.compress`: one subkey per
compression module, and its modules `del key`; `place_objects` hands each object a subkey its
`place_on_grid` deletes).

Splitting alone draws no number: `compress` splits `key` and hands every piece to a step that deletes it, so
the split the caller makes afterwards repeats nothing that was drawn.
"""
import jax
import jax.numpy as jnp


def cast_step(values, key):
    del key  # deterministic: a dtype conversion
    return values.astype(jnp.float16)


def keep_every_other(values, key):
    del key
    return values[::2]


def compress(values, key, every_other=True):
    key, subkey = jax.random.split(key)
    values = cast_step(values, subkey)
    if every_other:
        key, subkey = jax.random.split(key)
        values = keep_every_other(values, subkey)
    return values


def record(values):
    key = jax.random.PRNGKey(0)
    compressed = compress(values, key)
    key, subkey = jax.random.split(key)
    noise = jax.random.normal(subkey, compressed.shape)
    return compressed, noise


if __name__ == "__main__":
    compressed, noise = record(jnp.arange(8.0))
    assert compressed.shape == noise.shape == (4,)
    print("ok:", compressed, noise)
