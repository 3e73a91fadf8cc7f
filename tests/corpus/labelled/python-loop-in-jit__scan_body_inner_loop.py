"""Sharp Bits / "Control flow": a `lax.scan` body with an inner Python loop of 100 substeps.

The scan keeps the outer loop rolled, but each body contains 100 unrolled substeps.
"""
import jax
import jax.numpy as jnp
from jax import lax

DT = 0.01


def step(state, force):
    pos, vel = state
    for _ in range(100):  # expect: python-loop-in-jit
        vel = vel + DT * (force - pos)
        pos = pos + DT * vel
    return (pos, vel), pos


def simulate(forces):
    _, trajectory = lax.scan(step, (jnp.zeros(()), jnp.zeros(())), forces)
    return trajectory


if __name__ == "__main__":
    print("SHARP BIT: equations:", len(jax.make_jaxpr(step)((0.0, 0.0), 1.0).jaxpr.eqns))
    print(simulate(jnp.ones(5)))
