"""A warn-once latch called from jitted code (feax's deprecation warning of its closure assembly path).

`if _WARNED: return` and then `_WARNED = True` before `warnings.warn` is a flag meant to be set once per process:
that it is set at trace time, once, is what the author wants, and no traced value is stored. The warning is shown
once however often the compiled function runs (run: one warning for three calls).
"""
import warnings

import jax
import jax.numpy as jnp

_WARNED = False


def _warn_deprecated_path() -> None:
    global _WARNED
    if _WARNED:
        return
    _WARNED = True
    warnings.warn("this assembly path is deprecated", FutureWarning, stacklevel=3)


@jax.jit
def assemble(x):
    _warn_deprecated_path()
    return jnp.cumsum(x)


if __name__ == "__main__":
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for n in range(3):
            assemble(jnp.arange(4.0) + n)
    print("warnings shown:", len(caught), "latch set:", _WARNED)
