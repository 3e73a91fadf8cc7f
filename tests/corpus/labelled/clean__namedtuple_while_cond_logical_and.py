"""Newton's method with a `NamedTuple` solver state in `lax.while_loop`: the condition joins the tolerance test
and the iteration cap with `jnp.logical_and`, which stays a traced boolean.
"""
from typing import NamedTuple

import jax.numpy as jnp
from jax import lax


class SolverState(NamedTuple):
    x: jnp.ndarray
    err: jnp.ndarray
    it: int


def sqrt_newton(a, tol=1e-6, max_iter=50):
    def cond(s):
        return jnp.logical_and(s.err > tol, s.it < max_iter)

    def body(s):
        x = 0.5 * (s.x + a / s.x)
        return SolverState(x, jnp.abs(x * x - a), s.it + 1)

    return lax.while_loop(cond, body, SolverState(a, jnp.abs(a * a - a), 0)).x


if __name__ == "__main__":
    print(sqrt_newton(jnp.float32(2.0)))
