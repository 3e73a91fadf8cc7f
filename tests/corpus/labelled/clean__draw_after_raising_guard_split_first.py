"""The clean twin of prng-key-reuse__draw_after_raising_guard.py: the caller splits, so the position and the
momentum come from different keys (the helper still raises before it draws on bad input).
"""
import jax
import jax.numpy as jnp


def init(position, rng_key):
    if position.shape[0] < 2:
        raise ValueError("needs two dimensions")
    momentum = jax.random.normal(rng_key, position.shape)
    return position, momentum


def start(key, sample_init):
    key_position, key_momentum = jax.random.split(key)
    position = sample_init(key_position)
    return init(position, key_momentum)


if __name__ == "__main__":
    position, momentum = start(jax.random.PRNGKey(0), lambda k: jax.random.normal(k, (3,)))
    print(position, momentum, "same:", bool(jnp.all(position == momentum)))
