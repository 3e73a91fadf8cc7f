"""The bug twin: the time grid is a mapped argument of the lambda, so the helper's `float(ts[0])` converts a tracer
and vmap raises ConcretizationTypeError."""
import jax
import jax.numpy as jnp


def main():
    tss = jnp.ones((4, 20))
    y0s = jnp.ones(4)
    return jax.vmap(lambda y0, ts: solve_reference(0.5, ts, y0))(y0s, tss)


def solve_reference(rate, ts, y0):
    t0 = float(ts[0])  # expect: host-conversion-in-jit
    return y0 * jnp.exp(-rate * t0)


print(main())
