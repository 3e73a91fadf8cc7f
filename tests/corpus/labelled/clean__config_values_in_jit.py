"""JIT docs: Python configuration read inside a jitted function is a trace-time constant.

Branching on a config dataclass, a module-level dict and a closed-over Python number is fine.
"""
import dataclasses

import jax
import jax.numpy as jnp

SETTINGS = {"activation": "gelu", "residual": True}


@dataclasses.dataclass(frozen=True)
class Config:
    dropout: float = 0.0
    layers: int = 2


CONFIG = Config()


@jax.jit
def block(x):
    y = jax.nn.gelu(x) if SETTINGS["activation"] == "gelu" else jax.nn.relu(x)
    if CONFIG.dropout > 0.0 and CONFIG.layers > 1:
        y = y * (1.0 - CONFIG.dropout)
    if SETTINGS["residual"]:
        y = y + x
    return y


if __name__ == "__main__":
    print(block(jnp.ones(3)))
