"""Bisection with `lax.while_loop`: the condition combines its traced tests with `jnp.logical_and`.

The same carry as the bug twin (the bracket's ends as passed, a Python counter); the condition returns a traced
boolean, which is what while_loop wants.
"""
import jax.numpy as jnp
from jax import lax


def bisect(f, lo, hi, tol=1e-6, max_iter=100):
    def cond(state):
        lo, hi, i = state
        return jnp.logical_and(hi - lo > tol, i < max_iter)

    def body(state):
        lo, hi, i = state
        mid = 0.5 * (lo + hi)
        right = f(mid) < 0
        return jnp.where(right, mid, lo), jnp.where(right, hi, mid), i + 1

    lo, hi, _ = lax.while_loop(cond, body, (lo, hi, 0))
    return 0.5 * (lo + hi)


if __name__ == "__main__":
    print(bisect(lambda x: x ** 2 - 2.0, 0.0, 2.0))
