"""A solver checks convergence eagerly and skips the check under a trace, but its guard asks whether the *scale* is
a tracer, not the flag it converts: called from a jitted function with a Python scale, the guard lets `bool()` run
on the traced flag, which raises TracerBoolConversionError.
"""
import jax
import jax.numpy as jnp


def certified(value, accepted, scale):
    traced = isinstance(scale, jax.core.Tracer)
    if not traced and not bool(accepted):  # expect: traced-control-flow
        raise RuntimeError("did not converge")
    return value * scale


@jax.jit
def solve(x):
    return certified(x / 2, jnp.all(jnp.isfinite(x)), 2.0)


if __name__ == "__main__":
    try:
        solve(jnp.ones(3))
    except jax.errors.TracerBoolConversionError:
        print("SHARP BIT: the guard on `scale` let bool() run on the traced flag")
