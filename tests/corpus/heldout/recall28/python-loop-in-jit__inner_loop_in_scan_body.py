"""A leapfrog integrator: `lax.scan` over the outer steps, but the body refines each step with a Python loop of
64 sub-steps, unrolled 64 times inside the scan body.
"""
import jax
import jax.numpy as jnp
from jax import lax

SUBSTEPS = 64


def simulate(q, p, dt, n_steps):
    def step(carry, _):
        q, p = carry
        h = dt / SUBSTEPS
        for _ in range(SUBSTEPS):  # expect: python-loop-in-jit
            p = p - 0.5 * h * q
            q = q + h * p
            p = p - 0.5 * h * q
        return (q, p), q

    return lax.scan(step, (q, p), None, length=n_steps)[1]


if __name__ == "__main__":
    lines = str(jax.make_jaxpr(simulate, static_argnums=3)(1.0, 0.0, 0.1, 10)).count("\n")
    if lines > 200:
        print(f"SHARP BIT: the scan body has {lines} jaxpr lines (64 sub-steps unrolled)")
