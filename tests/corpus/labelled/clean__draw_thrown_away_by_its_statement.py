"""A `jax.random` call that is a statement of its own (round 36's jammer: `jax.random.permutation(key, walkers)`,
the result never bound): `jax.random` is pure, so its numbers are thrown away at once and reach nothing; the key's
later draw is its only one that matters.
"""
import jax
import jax.numpy as jnp


def shuffle(key, walkers):
    jax.random.permutation(key, walkers)  # a no-op: the shuffled copy is dropped
    return jax.random.permutation(key, walkers)


if __name__ == "__main__":
    print("one shuffle:", shuffle(jax.random.PRNGKey(0), jnp.arange(6)))
