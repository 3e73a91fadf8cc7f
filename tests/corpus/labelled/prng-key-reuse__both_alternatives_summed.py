"""The bug twin of clean__select_keeps_one_draw.py: both samples are kept (added), so the uniform and the
normal draw come from the same bits and are correlated.
"""
import jax
import jax.numpy as jnp


def on_triangle(rng):
    return jax.random.uniform(rng, (2,))


def on_rectangle(rng):
    return jax.random.normal(rng, (2,))


def sample_point(rng):
    return on_triangle(rng) + on_rectangle(rng)  # expect: prng-key-reuse


if __name__ == "__main__":
    print(sample_point(jax.random.PRNGKey(0)), jnp.zeros(()))
