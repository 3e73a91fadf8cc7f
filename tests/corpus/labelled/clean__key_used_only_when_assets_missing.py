"""A helper draws from its key only to fill in a parameter the caller left out (mahjax's next round: the wall
is dealt from `key` only when `prepared is None`). The caller deals once and passes what it dealt to two such
helpers, so neither draws again: the key is used for one draw only.
"""
import jax
import jax.numpy as jnp


def deal(key):
    wall = jax.random.permutation(key, 16)
    return wall[:4], wall[4:]


def next_round(score, key, prepared=None):
    if prepared is None:
        prepared = deal(key)
    hand, rest = prepared
    return score + jnp.sum(hand), rest


def special_round(score, key, prepared=None):
    if prepared is None:
        prepared = deal(key)
    hand, _ = prepared
    return score - jnp.sum(hand)


def step(score, key):
    prepared = deal(key)
    a, _ = next_round(score, key, prepared=prepared)
    b = special_round(score, key, prepared=prepared)
    return a, b


if __name__ == "__main__":
    print(step(jnp.int32(0), jax.random.PRNGKey(0)))
