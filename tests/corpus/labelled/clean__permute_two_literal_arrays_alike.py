"""A TWAP order split (jaxlob's test scripts): the aggressive and the passive split of the remaining quantity are
two arrays of three quantities built in place, and one key permutes both. `permutation(key, x)` applies the same
permutation to every array of one length, as for data and labels shuffled together: the two orders are one random
order, whichever split is kept.
"""
import jax
import jax.numpy as jnp


def split_order(key, step, remaining):
    aggressive = jax.random.permutation(key, jnp.array([step - 3 * step // 4, step // 4, step // 4]), independent=True)
    passive = jax.random.permutation(key, jnp.array([remaining - 3 * remaining // 4, remaining // 4, remaining // 4]),
                                     independent=True)
    return jnp.where(aggressive.sum() <= remaining, aggressive, passive), aggressive, passive


if __name__ == "__main__":
    for seed in range(20):
        _, a, p = split_order(jax.random.PRNGKey(seed), 7, 70)  # splits [2, 1, 1] and [18, 17, 17]
        slots = jax.random.permutation(jax.random.PRNGKey(seed), jnp.arange(3), independent=True)
        assert a.tolist() == [[2, 1, 1][i] for i in slots.tolist()]
        assert p.tolist() == [[18, 17, 17][i] for i in slots.tolist()]
    print("one order for both splits, 20 keys")
