"""A test that builds two models from one seed on purpose and checks, through a comparing function, that they are
identical (jaxtree-extensions' `diff = tree_compare(model1, model2)` then `assert not diff.has_changes`): the
second model reproduces the first on purpose."""
import jax
import jax.numpy as jnp


def init_mlp(key, sizes):
    keys = jax.random.split(key, len(sizes) - 1)
    return [jax.random.normal(k, (m, n)) for k, m, n in zip(keys, sizes[:-1], sizes[1:])]


def tree_compare(a, b):
    same = jax.tree.structure(a) == jax.tree.structure(b) and all(
        bool(jnp.array_equal(x, y)) for x, y in zip(jax.tree.leaves(a), jax.tree.leaves(b)))
    return not same


def test_identical_models_match():
    model1 = init_mlp(jax.random.PRNGKey(0), [2, 3, 2])
    model2 = init_mlp(jax.random.PRNGKey(0), [2, 3, 2])
    has_changes = tree_compare(model1, model2)
    assert not has_changes


test_identical_models_match()
print("ok")
