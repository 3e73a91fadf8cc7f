"""A helper that checks its input and raises before it draws (blackjax's `mclmc.init`: at least two dimensions,
then the momentum is drawn from `rng_key`): whenever it returns, it has drawn. The caller drew the initial
position from the same key first (through a sampler it was given, as the test's model object), so the momentum repeats the position's bits.
"""
import jax
import jax.numpy as jnp


def init(position, rng_key):
    if position.shape[0] < 2:
        raise ValueError("needs two dimensions")
    momentum = jax.random.normal(rng_key, position.shape)
    return position, momentum


def start(key, sample_init):
    position = sample_init(key)
    return init(position, key)  # expect: prng-key-reuse


if __name__ == "__main__":
    position, momentum = start(jax.random.PRNGKey(0), lambda k: jax.random.normal(k, (3,)))
    print(position, momentum, "same:", bool(jnp.all(position == momentum)))
