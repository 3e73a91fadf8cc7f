"""Twin of clean__seeded_runs_checked_apart: the two runs from `jax.random.key(0)` meet in one computation, their
correlation (meant to measure two independent paths), which is returned.

They are the same path (checked below: equal, correlation 1).
"""
import jax
import jax.numpy as jnp


def simulate(x0, key, n):
    steps = jnp.where(jax.random.bernoulli(key, 0.5, (n,)), 1, -1)
    return x0 + jnp.cumsum(steps)


def paths():
    a = simulate(0, jax.random.key(0), 64)
    b = simulate(0, jax.random.key(0), 64)  # expect: prng-key-reuse
    return a, b, float(jnp.corrcoef(a, b)[0, 1])


if __name__ == "__main__":
    a, b, corr = paths()
    if jnp.array_equal(a, b):
        print(f"SHARP BIT: the two paths are one (correlation {corr:.3f})")
