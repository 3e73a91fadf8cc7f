"""A game test in the pgx style: each scenario deals the same cards from one key (the assertions depend on the
deal), and the last scenario sets the deal up through a helper. Every value of one scenario is dead before the
next deal, so no computation sees two deals: a replay, not correlated draws.
"""
import jax
import jax.numpy as jnp


def init(key):
    return jax.random.permutation(key, jnp.arange(6))[:2]


def init_sorted(key):
    return jnp.sort(init(key))


def step(cards, action):
    return cards + action


def test_scenarios():
    key = jax.random.PRNGKey(1)
    cards = init(key)
    cards = step(cards, 1)
    assert cards.shape == (2,)
    cards = init_sorted(key)
    cards = step(cards, 2)
    assert bool(cards[0] <= cards[1])


if __name__ == "__main__":
    test_scenarios()
    print("passed")
