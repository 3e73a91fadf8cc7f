"""A key drawn from twice where `jax` is imported inside the function (a test, a `main()`, optional JAX).

`import jax` or `from jax import random as jr` in a function's body binds the module in that function only; the
draws are `jax.random` draws all the same: `b` repeats `a`'s numbers, and `w` is correlated with `v`.
"""


def test_two_draws():
    import jax

    key = jax.random.PRNGKey(0)
    a = jax.random.normal(key, (3,))
    b = jax.random.normal(key, (3,))  # expect: prng-key-reuse
    return a, b


def sample():
    from jax import random as jr

    key = jr.PRNGKey(1)
    v = jr.normal(key, (4,))
    w = jr.uniform(key, (4,))  # expect: prng-key-reuse
    return v, w


def outer():
    import jax.random

    def inner(key):
        return jax.random.normal(key, (2,)) + jax.random.normal(key, (2,))  # expect: prng-key-reuse

    return inner(jax.random.PRNGKey(2))


if __name__ == "__main__":
    a, b = test_two_draws()
    v, w = sample()
    print(bool((a == b).all()), v, w, outer())
