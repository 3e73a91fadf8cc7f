"""A test that runs two implementations with the same key on purpose and compares what they give: once through
the ratio of two results (`ratio = a / b`, then checked against 1), once through a list built by `append` from
one run's steps (blackjax's barker and LRD warm-up tests). The equal draws are what is tested.
"""
import jax
import jax.numpy as jnp


def run(key, scale, n):
    return scale * jax.random.normal(key, (n,))


def run_scaled(key, scale, n):
    return jax.random.normal(key, (n,)) * scale


def test_ratio():
    key = jax.random.PRNGKey(3)
    a = run(key, 2.0, 4)
    b = run_scaled(key, 2.0, 4)
    ratio = a / b
    assert jnp.allclose(ratio, 1.0)


def test_list():
    key = jax.random.PRNGKey(4)
    steps1 = run(key, 1.0, 5)
    steps2 = run_scaled(key, 3.0, 5)
    rescaled = []
    for i in range(5):
        rescaled.append(steps2[i] / 3.0)
    rescaled = jnp.array(rescaled)
    assert jnp.allclose(steps1, rescaled)


if __name__ == "__main__":
    test_ratio()
    test_list()
    print("equal draws compared: ok")
