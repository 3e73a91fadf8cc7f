"""jaxdl 0.0.4 tests/rl/test_networks.py (and maxtext's moe_test): a flax linen module is initialised with
sample inputs drawn from the init's own key, `model.init(rng, uniform(rng, (1, 3)))`, and nothing else reads
those inputs; the module is then applied to other data.

A linen `init` reads its sample inputs' shapes and dtypes only: each parameter's initialiser gets a key and a
shape, never the input (checked below: the parameters are the same whatever numbers the sample inputs hold),
so no number drawn for the sample input meets a number drawn for the parameters. Two sample inputs drawn
alike (`init(rng, uniform(rng, s), uniform(rng, a))`) are equal, and nothing reads either. Needs flax.
"""
import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
from jax import random


class Critic(nn.Module):
    @nn.compact
    def __call__(self, obs, act):
        x = jnp.concatenate([obs, act], -1)
        return nn.Dense(1)(nn.relu(nn.Dense(24)(x)))


def test_critic():
    observations = np.array([[5.0, 5.0, 5.0]], dtype=np.float32)
    actions = np.array([[1.0, 1.0]], dtype=np.float32)
    rng = random.PRNGKey(0)
    critic = Critic()
    params = critic.init(rng, random.uniform(rng, (1, 3)), random.uniform(rng, (1, 2)))
    out = critic.apply(params, observations, actions)
    assert out.shape == (1, 1)
    return params


def test_critic_named_input():
    rng = random.PRNGKey(0)
    critic = Critic()
    sample_obs = random.uniform(rng, (1, 3))
    params = critic.init(rng, sample_obs, jnp.zeros((sample_obs.shape[0], 2)))
    return critic.apply(params, jnp.ones((4, 3)), jnp.ones((4, 2)))


if __name__ == "__main__":
    params = test_critic()
    test_critic_named_input()
    # the same parameters from sample inputs holding other numbers: init read only their shapes
    other = Critic().init(random.PRNGKey(0), jnp.full((1, 3), 7.0), jnp.full((1, 2), -3.0))
    same = jax.tree_util.tree_all(jax.tree_util.tree_map(lambda a, b: bool(jnp.array_equal(a, b)), params, other))
    print("parameters independent of the sample inputs' values:", same)
    assert same
