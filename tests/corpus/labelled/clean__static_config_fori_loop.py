"""A frozen dataclass config passed as a static argument: the jitted solver runs `cfg.n_iter` gradient steps
with `lax.fori_loop`, so the program holds one step.
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
    return jax.lax.fori_loop(0, cfg.n_iter, lambda _, x: x - cfg.lr * (x - a), x)


if __name__ == "__main__":
    lines = str(jax.make_jaxpr(solve, static_argnums=1)(jnp.ones(3), SolverConfig())).count("\n")
    if lines > 400:
        print(f"SHARP BIT: the solver's jaxpr has {lines} lines")
    print(solve(jnp.ones(3), SolverConfig()))
