"""A simulation config dataclass defaults its `dtype` field to `jnp.float64`; the program builds its state with
`jnp.zeros(n, dtype=cfg.dtype)` without enabling x64, so the state is silently float32.
"""
import dataclasses
from typing import Any

import jax.numpy as jnp


@dataclasses.dataclass
class SimConfig:
    n_particles: int = 4
    dtype: Any = jnp.float64


def init_state(cfg):
    return jnp.zeros(cfg.n_particles, dtype=cfg.dtype)  # expect: float64-without-x64


if __name__ == "__main__":
    state = init_state(SimConfig())
    if state.dtype == jnp.float32:
        print("SHARP BIT: asked for float64, got", state.dtype)
