"""Debug code under a flag that is off as written (round 36's imax and eigh): `DEBUG = False`, bound once and
written by no function, and `is_debug_enabled()`, whose body is `return False` (bound once to a local first). The branches never run, under a
trace or not: nothing prints, and the boolean mask is never built.
"""
import jax
import jax.numpy as jnp

DEBUG = False


def is_debug_enabled() -> bool:
    """Set to True by hand when debugging the backward pass."""
    return False


@jax.jit
def bwd(x):
    in_debug_mode = is_debug_enabled()
    if in_debug_mode:
        small = x[jnp.abs(x) < 1e-3]
        print("small entries:", small)
    return x * 2


def body(i, x):
    if DEBUG:
        print("step", i, x)
    return x + i


if __name__ == "__main__":
    print(bwd(jnp.arange(3.0)), jax.lax.fori_loop(0, 3, body, jnp.zeros(())))
