"""A replay buffer kept as a `NamedTuple` of JAX arrays; `add` writes the transition into `buf.obs[i]` as it
would with NumPy, which raises: JAX arrays are immutable.
"""
from typing import NamedTuple

import jax.numpy as jnp


class Replay(NamedTuple):
    obs: jnp.ndarray
    reward: jnp.ndarray
    size: int


def add(buf, obs, reward):
    buf.obs[buf.size] = obs  # expect: in-place-update
    return buf._replace(reward=buf.reward.at[buf.size].set(reward), size=buf.size + 1)


if __name__ == "__main__":
    buf = Replay(jnp.zeros((16, 3)), jnp.zeros(16), 0)
    buf = add(buf, jnp.ones(3), 1.0)
    print(buf.size)
