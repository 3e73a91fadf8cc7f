"""The bug twin of `clean__linen_init_sample_input_drawn_from_its_key.py`: the input drawn from the init's key
is kept and the module is applied to it, so the test data and the weights come from one key (flax's
linen_module_test, haiku's transform tests: correlated test data). The second test draws the sample input
under a name and also feeds it to `apply`. Needs flax.
"""
import flax.linen as nn
import jax.numpy as jnp
from jax import random


class Critic(nn.Module):
    @nn.compact
    def __call__(self, obs, act):
        x = jnp.concatenate([obs, act], -1)
        return nn.Dense(1)(nn.relu(nn.Dense(24)(x)))


def test_critic():
    rng = random.PRNGKey(0)
    critic = Critic()
    obs = random.uniform(rng, (1, 3))
    params = critic.init(rng, obs, jnp.zeros((1, 2)))  # expect: prng-key-reuse
    return critic.apply(params, obs, jnp.zeros((1, 2)))


def test_critic_inline_and_kept():
    rng = random.PRNGKey(0)
    critic = Critic()
    act = random.uniform(rng, (1, 2))
    params = critic.init(rng, random.uniform(rng, (1, 3)), act)  # expect: prng-key-reuse
    return critic.apply(params, jnp.ones((1, 3)), act)


if __name__ == "__main__":
    out = test_critic()
    test_critic_inline_and_kept()
    print("SHARP BIT: the input and the weights are drawn from one key:", out)
