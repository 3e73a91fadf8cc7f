"""The bug twin of `clean__determinism_check_through_nested_unpacking`: the test averages the two draws and
checks only that the mixture is normalised.

The draws meet in `dist + repeat[idx]` before any check, so nothing is reproduced on purpose: the "mixture" is
one distribution counted twice (`jax_debug_key_reuse` raises on the second draw).
"""
import jax
import jax.numpy as jnp


def random_categoricals(key, dims):
    return [jax.nn.softmax(jax.random.normal(k, (d,))) for k, d in zip(jax.random.split(key, len(dims)), dims)]


def test_mixture():
    key = jax.random.PRNGKey(0)
    dims = [3, 5, 2]
    dists = random_categoricals(key, dims)
    repeat = random_categoricals(key, dims)  # expect: prng-key-reuse
    for idx, (dist, dim) in enumerate(zip(dists, dims)):
        mixture = 0.5 * (dist + repeat[idx])
        assert bool(jnp.allclose(mixture.sum(), 1.0, atol=1e-5))


if __name__ == "__main__":
    test_mixture()
    jax.config.update("jax_debug_key_reuse", True)
    try:
        key = jax.random.key(0)
        random_categoricals(key, [3])
        random_categoricals(key, [3])  # expect: prng-key-reuse
    except Exception as error:
        print("SHARP BIT:", type(error).__name__)
