"""A solver whose precision comes from a dataclass config: `dtype: Any = jnp.float64` by default.

The program never enables `jax_enable_x64`, so `jnp.zeros(n, dtype=cfg.dtype)` silently gives float32: the
"double precision" accumulator keeps 7 digits. The dtype is the field's default: nothing in the program passes
another one (see clean__dataclass_field_default_overridden).
"""
from dataclasses import dataclass
from typing import Any

import jax.numpy as jnp


@dataclass(frozen=True)
class SolverConfig:
    steps: int = 1000
    dtype: Any = jnp.float64


def accumulate(cfg: SolverConfig):
    total = jnp.zeros((), dtype=cfg.dtype)  # expect: float64-without-x64
    for _ in range(cfg.steps):
        total = total + 1e-8
    return total


if __name__ == "__main__":
    total = accumulate(SolverConfig())
    if total.dtype != jnp.dtype("float64"):
        print("SHARP BIT: asked for float64, got", total.dtype, total)
