"""A leapfrog integrator: `lax.scan` over the outer steps, and each step's 64 sub-steps run in a
`lax.fori_loop`, so the body is traced once.
"""
import jax
import jax.numpy as jnp
from jax import lax

SUBSTEPS = 64


def simulate(q, p, dt, n_steps):
    def step(carry, _):
        h = dt / SUBSTEPS

        def sub(_, qp):
            q, p = qp
            p = p - 0.5 * h * q
            q = q + h * p
            return q, p - 0.5 * h * q

        q, p = lax.fori_loop(0, SUBSTEPS, sub, carry)
        return (q, p), q

    return lax.scan(step, (q, p), None, length=n_steps)[1]


if __name__ == "__main__":
    lines = str(jax.make_jaxpr(simulate, static_argnums=3)(1.0, 0.0, 0.1, 10)).count("\n")
    if lines > 200:
        print(f"SHARP BIT: the scan body has {lines} jaxpr lines")
    print(simulate(1.0, 0.0, 0.1, 10)[-1], jnp.cos(1.0))
