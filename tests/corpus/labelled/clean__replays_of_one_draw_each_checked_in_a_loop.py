"""A test checks that every spelling of a sampler's defaults replays the draws it always made (l2co's sampler test).

`before` is drawn from the key, and each spelling is drawn from the same key on purpose, in one `for` over the
two calls: each iteration checks one replay against `before`, and nothing keeps it past its iteration. The twin
`prng-key-reuse__replays_of_one_draw_summed_in_a_loop` adds the replays up: two copies of one draw, not two draws.
"""
import jax
import jax.numpy as jnp


def _sample(key, n):
    return jax.random.uniform(key, (n,))


def random_sampling(key, n, lower=0.0, upper=1.0):
    return lower + (upper - lower) * _sample(key, n)


def test_default_bounds_draw_what_they_always_did():
    key = jax.random.key(1)
    before = _sample(key, 4)
    for got in (
        random_sampling(key, 4),
        random_sampling(key, 4, lower=0.0, upper=1.0),
    ):
        for a, b in zip(jax.tree.leaves(got), jax.tree.leaves(before), strict=True):
            assert bool(jnp.allclose(a, b))


if __name__ == "__main__":
    test_default_bounds_draw_what_they_always_did()
    print("each spelling replays the same draw, as the test wants")
