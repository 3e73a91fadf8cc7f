"""The bug twin: the guard tests `_backend`, but the function never sets it, so it is no load-once guard: the call
counter it bumps counts traces, not calls (two jitted calls leave it at 1)."""
import math

import jax
import jax.numpy as jnp

_backend = None
CALLS = 0


def _ensure_backend():
    global _backend, CALLS
    if _backend is not None:
        return _backend
    CALLS += 1  # expect: side-effect-in-jit
    return math


@jax.jit
def solve(x):
    _ensure_backend()
    return jnp.sum(x)


if __name__ == "__main__":
    print(solve(jnp.ones(3)), solve(jnp.ones(3)), CALLS)  # CALLS is 1 after two calls
