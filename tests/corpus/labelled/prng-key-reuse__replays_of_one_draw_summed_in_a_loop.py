"""The bug twin of `clean__replays_of_one_draw_each_checked_in_a_loop`: the test sums the two samples to check
their mean.

Both calls draw from one key, so the "two samples" are one sample counted twice: the estimate has the variance of
one draw, not of two (`jax_debug_key_reuse` raises on the second draw).
"""
import jax
import jax.numpy as jnp


def _sample(key, n):
    return jax.random.uniform(key, (n,))


def random_sampling(key, n, lower=0.0, upper=1.0):
    return lower + (upper - lower) * _sample(key, n)


def test_mean_of_two():
    key = jax.random.key(1)
    total = jnp.zeros(4)
    for got in (
        random_sampling(key, 4),
        random_sampling(key, 4, lower=0.0, upper=1.0),  # expect: prng-key-reuse
    ):
        total = total + got
    mean = total / 2
    assert bool(jnp.all((mean >= 0.0) & (mean <= 1.0)))
    return mean


if __name__ == "__main__":
    print(test_mean_of_two())
    jax.config.update("jax_debug_key_reuse", True)
    try:
        key = jax.random.key(1)
        random_sampling(key, 4)
        random_sampling(key, 4)  # expect: prng-key-reuse
    except Exception as error:
        print("SHARP BIT:", type(error).__name__)
