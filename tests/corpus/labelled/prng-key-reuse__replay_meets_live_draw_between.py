"""A test replays a feature sampler with its key (gpjax's `sample_approx` checks): the second call is compared
with the first on purpose, and a later call with more features sets the same name again once the first's
values are dead. But the inputs `x`, drawn from the same key in between, are still alive when the replay runs,
and the replayed features start with the very numbers of `x`.
"""
import jax
import jax.numpy as jnp


def features(key, n):
    return jax.random.normal(key, (n,))


def test_features():
    key = jax.random.key(0)
    f = features(key, 4)
    assert f.shape == (4,)
    x = jax.random.normal(key, (4,))  # expect: prng-key-reuse
    f2 = features(key, 4)  # expect: prng-key-reuse
    assert bool(jnp.all(f2 == f))  # the same key gives the same features
    f = features(key, 8)  # expect: prng-key-reuse
    return f, x


if __name__ == "__main__":
    f, x = test_features()
    if bool(jnp.allclose(f[:4], x)):
        print("SHARP BIT: the replayed features repeat the inputs x:", x)
