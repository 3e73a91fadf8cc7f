"""Sharp Bits: "Pure functions": a `lax.scan` body inside a jitted rollout reads a global time step.
"""
import jax
import jax.numpy as jnp
from jax import lax

dt = 0.1


def dynamics(x, u):
    x_next = x + dt * (-x + u)  # expect: global-captured-in-jit
    return x_next, x_next


@jax.jit
def rollout(x0, controls):
    _, xs = lax.scan(dynamics, x0, controls)
    return xs


if __name__ == "__main__":
    coarse = rollout(0.0, jnp.ones(4))
    dt = 0.001
    fine = rollout(0.0, jnp.ones(4))
    print("SHARP BIT: same trajectory after changing dt:", bool(jnp.allclose(coarse, fine)))
