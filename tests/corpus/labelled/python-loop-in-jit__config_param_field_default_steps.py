"""A config dataclass is annotated on a jitted function's static parameter; its `steps` field defaults to 300 and
no caller changes it, so the Python loop over `range(cfg.steps)` is unrolled 300 times into the jaxpr.
"""
import dataclasses
from functools import partial

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class Schedule:
    steps: int = 300
    decay: float = 0.99


@partial(jax.jit, static_argnames="cfg")
def smooth(x, cfg: Schedule):
    for _ in range(cfg.steps):  # expect: python-loop-in-jit
        x = cfg.decay * x + (1 - cfg.decay) * jnp.tanh(x)
    return x


if __name__ == "__main__":
    lines = str(jax.make_jaxpr(lambda x: smooth(x, cfg=Schedule()))(jnp.ones(3))).count("\n")
    if lines > 600:
        print(f"SHARP BIT: the jaxpr has {lines} lines (300 steps unrolled)")
