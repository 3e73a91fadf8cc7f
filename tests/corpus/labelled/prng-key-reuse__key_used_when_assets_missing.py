"""The bug twin of clean__key_used_only_when_assets_missing.py: the second helper is called without the dealt
assets, so it deals again from the same key and gets the very same wall (the special round's hand equals the
hand already dealt).
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
    return hand


def step(score, key):
    prepared = deal(key)
    a, _ = next_round(score, key, prepared=prepared)
    hand = special_round(score, key)  # expect: prng-key-reuse
    return a, prepared[0], hand


if __name__ == "__main__":
    a, dealt, again = step(jnp.int32(0), jax.random.PRNGKey(0))
    print(dealt, again, "same hand:", bool((dealt == again).all()))
