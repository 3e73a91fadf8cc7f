"""Clean twin: the config is a NamedTuple bound to a name, hashable, passed where `static_argnames` points."""
import functools
from typing import NamedTuple

import jax
import jax.numpy as jnp


class Config(NamedTuple):
    gain: float
    bias: float


@functools.partial(jax.jit, static_argnames=("config",))
def forward(x, config):
    return jnp.tanh(x * config.gain) + config.bias


if __name__ == "__main__":
    config = Config(gain=1.5, bias=0.1)
    print(forward(jnp.ones(3), config=config))
