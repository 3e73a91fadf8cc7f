"""Sharp Bits / "Control flow": a loop over a static argument is unrolled as many times as the call
site asks. `power_iteration(a, v, n=1000)` compiles 1,000 copies of the body; `lax.fori_loop` would not.
"""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames="n")
def power_iteration(a, v, n=10):
    for _ in range(n):  # expect: python-loop-in-jit
        v = a @ v
        v = v / jnp.linalg.norm(v)
    return v @ a @ v


def top_eigenvalue(a):
    return power_iteration(a, jnp.ones(a.shape[0]), n=1000)


if __name__ == "__main__":
    a = jnp.diag(jnp.arange(1.0, 5.0))
    print("top eigenvalue:", top_eigenvalue(a))
    eqns = len(jax.make_jaxpr(partial(power_iteration.__wrapped__, n=1000))(a, jnp.ones(4)).jaxpr.eqns)
    if eqns >= 1000:
        print("SHARP BIT: equations in the program for n=1000:", eqns)
