"""A replay buffer kept as a `NamedTuple` of JAX arrays; `add` returns `buf._replace(obs=buf.obs.at[i].set(o),
...)`, the functional update.
"""
from typing import NamedTuple

import jax.numpy as jnp


class Replay(NamedTuple):
    obs: jnp.ndarray
    reward: jnp.ndarray
    size: int


def add(buf, obs, reward):
    i = buf.size
    return buf._replace(obs=buf.obs.at[i].set(obs), reward=buf.reward.at[i].set(reward), size=i + 1)


if __name__ == "__main__":
    buf = Replay(jnp.zeros((16, 3)), jnp.zeros(16), 0)
    buf = add(buf, jnp.ones(3), 1.0)
    print(buf.size, buf.obs[0])
