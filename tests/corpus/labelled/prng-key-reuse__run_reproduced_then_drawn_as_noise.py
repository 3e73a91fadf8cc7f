"""Twin of clean__run_reproduced_then_compared_with_the_reproduction: after the reproduction is checked, a third
run from the same key is used as noise on the first path, compared with nothing.

The noise is the path itself (checked below): `noisy` is `2 * path`, not a path with independent noise.
"""
import jax
import jax.numpy as jnp


def simulate(p, x0, key, n):
    steps = jax.random.bernoulli(key, p, (n,))
    return x0 + jnp.cumsum(jnp.where(steps, 1, -1))


def noisy_paths():
    key = jax.random.key(0)
    path = simulate(0.5, 0, key, 6)
    endpoint = simulate(0.5, 0, key, 6)[-1]
    assert int(path[-1]) == int(endpoint)
    noise = simulate(0.5, 0, key, 6)  # expect: prng-key-reuse
    return path, path + noise


if __name__ == "__main__":
    path, noisy = noisy_paths()
    if jnp.array_equal(noisy, 2 * path):
        print("SHARP BIT: the noise is the path itself: noisy == 2 * path")
