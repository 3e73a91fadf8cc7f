"""Haiku: an actor and a critic each get a `hk.PRNGSequence`, built from the two halves of one split, so their
streams of keys are independent.
"""
import haiku as hk
import jax
import jax.numpy as jnp


def build_streams(seed):
    actor_key, critic_key = jax.random.split(jax.random.key(seed))
    actor_rng = hk.PRNGSequence(actor_key)
    critic_rng = hk.PRNGSequence(critic_key)
    return actor_rng, critic_rng


if __name__ == "__main__":
    actor_rng, critic_rng = build_streams(0)
    explore = jax.random.normal(next(actor_rng), (4,))
    target = jax.random.normal(next(critic_rng), (4,))
    if bool(jnp.all(explore == target)):
        print("SHARP BIT: actor exploration noise equals critic target noise")
