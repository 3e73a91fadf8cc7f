"""A helper called from a vmapped lambda with a concrete array the lambda closes over (jax-hybridmodels'
`solve_reference(field, rect_ts, y0)`): `float(ts[0])` in the helper reads that array's number, not a tracer."""
import jax
import jax.numpy as jnp


def main():
    ts = jnp.linspace(0.0, 8.0, 20)
    y0s = jnp.ones(4)
    return jax.vmap(lambda y0: solve_reference(0.5, ts, y0))(y0s)


def solve_reference(rate, ts, y0):
    t0, t1 = float(ts[0]), float(ts[-1])
    return y0 * jnp.exp(-rate * (t1 - t0))


print(main())
