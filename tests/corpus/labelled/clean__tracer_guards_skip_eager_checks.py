"""Three ways a helper runs a concrete check only when its inputs are no tracers, each called from a jitted function
and eagerly: a flag bound to `any(isinstance(leaf, jax.core.Tracer) ...)` over the inputs' leaves and tested
before `bool()` in one `and`; an early `return` when the input is a tracer; `isinstance(n, int) and n == 0`, which
short-circuits on a traced `n`. No trace ever reaches the `bool()` or the comparison.
"""
import jax
import jax.numpy as jnp


def certified(value, accepted):
    traced = any(isinstance(leaf, jax.core.Tracer) for leaf in jax.tree.leaves((value, accepted)))
    if not traced and not bool(accepted):
        raise RuntimeError("did not converge")
    return value * jnp.where(accepted, 1.0, jnp.nan)


def checked(value):
    if isinstance(value, jax.core.Tracer):
        return value
    if not bool(jnp.all(jnp.isfinite(value))):
        raise FloatingPointError("non-finite value")
    return value


@jax.jit
def shifted(x, offset):
    if not (isinstance(offset, int) and offset == 0):
        x = x + offset
    return x


@jax.jit
def solve(x):
    return checked(certified(x / 2, jnp.all(jnp.isfinite(x))))


if __name__ == "__main__":
    print(solve(jnp.ones(3)), checked(certified(jnp.ones(3), jnp.bool_(True))))
    print(shifted(jnp.ones(3), 0), shifted(jnp.ones(3), jnp.int32(2)))
