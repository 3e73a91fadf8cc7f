"""Haiku: an actor and a critic each get a `hk.PRNGSequence` built from the same key. The two sequences yield the
same keys in the same order, so the exploration noise of the actor equals the critic's target noise.
"""
import haiku as hk
import jax
import jax.numpy as jnp


def build_streams(seed):
    key = jax.random.key(seed)
    actor_rng = hk.PRNGSequence(key)
    critic_rng = hk.PRNGSequence(key)  # expect: prng-key-reuse
    return actor_rng, critic_rng


if __name__ == "__main__":
    actor_rng, critic_rng = build_streams(0)
    explore = jax.random.normal(next(actor_rng), (4,))
    target = jax.random.normal(next(critic_rng), (4,))
    if bool(jnp.all(explore == target)):
        print("SHARP BIT: actor exploration noise equals critic target noise")
