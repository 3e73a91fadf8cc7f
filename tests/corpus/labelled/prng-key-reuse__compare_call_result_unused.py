"""The bug twin: two models meant to be independent members of an ensemble are built from one seed; the
comparison is computed but never checked, so nothing says the repetition is wanted: the members are identical."""
import jax
import jax.numpy as jnp


def init_mlp(key, sizes):
    keys = jax.random.split(key, len(sizes) - 1)
    return [jax.random.normal(k, (m, n)) for k, m, n in zip(keys, sizes[:-1], sizes[1:])]


def tree_compare(a, b):
    return not all(bool(jnp.array_equal(x, y)) for x, y in zip(jax.tree.leaves(a), jax.tree.leaves(b)))


def ensemble():
    member1 = init_mlp(jax.random.PRNGKey(0), [2, 3, 2])
    member2 = init_mlp(jax.random.PRNGKey(0), [2, 3, 2])  # expect: prng-key-reuse
    differs = tree_compare(member1, member2)
    print("members differ:", differs)
    return member1, member2


ensemble()
