"""Sharp Bits / "Control flow": a Python `for` over `range(500)` inside `@jax.jit` is unrolled.

The jaxpr grows with the trip count and compilation takes seconds; `lax.fori_loop` keeps it one loop.
"""
import jax
import jax.numpy as jnp


@jax.jit
def power_iteration(a, v):
    for _ in range(500):  # expect: python-loop-in-jit
        v = a @ v
        v = v / jnp.linalg.norm(v)
    return v


if __name__ == "__main__":
    a = jnp.array([[2.0, 0.0], [0.0, 1.0]])
    jaxpr = jax.make_jaxpr(power_iteration.__wrapped__)(a, jnp.ones(2))
    print("SHARP BIT: equations in the unrolled jaxpr:", len(jaxpr.jaxpr.eqns))
