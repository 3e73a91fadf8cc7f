"""A native backend loaded on first use from traced code (jaxamg's `_ensure_backend`): `if _backend is not None:
return _backend` ends every later call at once, and the first call sets `_backend`, so the flag it records on the
way (`HAS_FAST_PATH`) is set once, by design, and trace time is as good a time as any."""
import math

import jax
import jax.numpy as jnp

_backend = None
HAS_FAST_PATH = False


def _ensure_backend():
    global _backend, HAS_FAST_PATH
    if _backend is not None:
        return _backend
    ext = math  # stands for the compiled extension imported here
    HAS_FAST_PATH = hasattr(ext, "fsum")
    _backend = ext
    return ext


@jax.jit
def solve(x):
    _ensure_backend()
    return jnp.sum(x) if HAS_FAST_PATH else jnp.mean(x)


if __name__ == "__main__":
    print(solve(jnp.ones(3)), solve(jnp.ones(3)), HAS_FAST_PATH)
