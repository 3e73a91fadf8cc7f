"""A frozen dataclass config passed as a static argument: the jitted solver loops `for _ in range(cfg.n_iter)`
with `n_iter = 200` from the config, unrolling 200 gradient steps into the program.
"""
import dataclasses
from functools import partial

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class SolverConfig:
    n_iter: int = 200
    lr: float = 0.1


@partial(jax.jit, static_argnums=1)
def solve(a, cfg):
    x = jnp.zeros_like(a)
    for _ in range(cfg.n_iter):  # expect: python-loop-in-jit
        x = x - cfg.lr * (x - a)
    return x


if __name__ == "__main__":
    lines = str(jax.make_jaxpr(solve, static_argnums=1)(jnp.ones(3), SolverConfig())).count("\n")
    if lines > 400:
        print(f"SHARP BIT: the solver's jaxpr has {lines} lines (200 iterations unrolled)")
