"""A solver config whose float64 default is replaced where the program builds it.

`SolverConfig(dtype=jnp.float32)` passes 32 bits explicitly, so the field's float64 default never reaches JAX
(the twin of float64-without-x64__dataclass_field_default_dtype).
"""
from dataclasses import dataclass
from typing import Any

import jax.numpy as jnp


@dataclass(frozen=True)
class SolverConfig:
    steps: int = 1000
    dtype: Any = jnp.float64


def accumulate(cfg: SolverConfig):
    total = jnp.zeros((), dtype=cfg.dtype)
    for _ in range(cfg.steps):
        total = total + 1e-3
    return total


if __name__ == "__main__":
    total = accumulate(SolverConfig(steps=10, dtype=jnp.float32))
    if total.dtype != jnp.dtype("float32"):
        print("SHARP BIT: asked for float32, got", total.dtype, total)
