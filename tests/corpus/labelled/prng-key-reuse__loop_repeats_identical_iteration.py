"""A round-trip test in the pgx style meant to try 50 random deals: the loop splits `rng` but never keeps the
new key, so every iteration splits the same key and tests the same deal 50 times.
"""
import jax
import jax.numpy as jnp


def deal(key):
    return jax.random.permutation(key, jnp.arange(8))


def encode(hand):
    return hand * 10


def decode(code):
    return code // 10


def test_round_trip():
    rng = jax.random.PRNGKey(0)
    for _ in range(50):
        rng1, rng2 = jax.random.split(rng)  # expect: prng-key-reuse
        hand = deal(rng2)
        assert jnp.array_equal(decode(encode(hand)), hand)


if __name__ == "__main__":
    test_round_trip()
    first = deal(jax.random.split(jax.random.PRNGKey(0))[1])
    second = deal(jax.random.split(jax.random.PRNGKey(0))[1])
    print("SHARP BIT: every iteration tests the same deal:", bool(jnp.array_equal(first, second)))
