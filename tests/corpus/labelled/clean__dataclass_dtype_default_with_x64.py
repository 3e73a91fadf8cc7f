"""A simulation config dataclass defaults its `dtype` field to `jnp.float64`; the program enables x64 first, so
`jnp.zeros(n, dtype=cfg.dtype)` is float64.
"""
import dataclasses
from typing import Any

import jax
import jax.numpy as jnp


@dataclasses.dataclass
class SimConfig:
    n_particles: int = 4
    dtype: Any = jnp.float64


def init_state(cfg):
    return jnp.zeros(cfg.n_particles, dtype=cfg.dtype)


if __name__ == "__main__":
    jax.config.update("jax_enable_x64", True)
    state = init_state(SimConfig())
    if state.dtype == jnp.float32:
        print("SHARP BIT: asked for float64, got", state.dtype)
