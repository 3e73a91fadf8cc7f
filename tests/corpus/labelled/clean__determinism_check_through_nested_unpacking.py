"""A test checks that a sampler of factorised categoricals is deterministic: drawn twice from one key, factor by
factor (pymdp's `test_utils_jax`).

The same key on purpose: `repeat` must equal `dists`, and the loop compares them element by element, unpacked as
`for idx, (dist, dim) in enumerate(zip(...))`. The twin
`prng-key-reuse__determinism_check_adds_the_draws` adds the two draws before checking: nothing is reproduced.
"""
import jax
import jax.numpy as jnp


def random_categoricals(key, dims):
    return [jax.nn.softmax(jax.random.normal(k, (d,))) for k, d in zip(jax.random.split(key, len(dims)), dims)]


def test_determinism():
    key = jax.random.PRNGKey(0)
    dims = [3, 5, 2]
    dists = random_categoricals(key, dims)
    repeat = random_categoricals(key, dims)
    for idx, (dist, dim) in enumerate(zip(dists, dims)):
        assert dist.shape == (dim,)
        assert bool(jnp.allclose(dist, repeat[idx]))


if __name__ == "__main__":
    test_determinism()
    print("identical draws, as the test wants")
