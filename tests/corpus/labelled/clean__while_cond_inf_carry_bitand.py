"""Sharp Bits / "Control flow": a Newton solver's `lax.while_loop` whose carry starts at `(x0, jnp.inf, 0)`,
with a condition that joins its two tests with `&` (an array operation). A plain Python loop on concrete
numbers beside it uses `and` on Python floats. Nothing here is a sharp bit.
"""
import math

import jax
import jax.numpy as jnp


def solve_kepler(M, e, tol=1e-6, max_iter=50):
    def cond(c):
        E, delta, it = c
        return (jnp.abs(delta) > tol) & (it < max_iter)

    def body(c):
        E, _, it = c
        delta = (E - e * jnp.sin(E) - M) / (1 - e * jnp.cos(E))
        return E - delta, delta, it + 1

    return jax.lax.while_loop(cond, body, (M, jnp.inf, 0))[0]


def solve_kepler_python(M, e, tol=1e-6, max_iter=50):
    E, delta, it = M, math.inf, 0
    while abs(delta) > tol and it < max_iter:
        delta = (E - e * math.sin(E) - M) / (1 - e * math.cos(E))
        E, it = E - delta, it + 1
    return E


if __name__ == "__main__":
    print(solve_kepler(jnp.float32(1.0), 0.3), solve_kepler_python(1.0, 0.3))
