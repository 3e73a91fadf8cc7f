"""Sharp Bits: "Pure functions": `lax.scan` keeps the trace of its body even outside `jit`.

`rollout` is not jitted, but `lax.scan` caches the jaxpr of the module-level `euler` body: after
`set_dt` the old time step is still used.
"""
import jax.numpy as jnp
from jax import lax

dt = 0.1


def euler(x, u):
    x = x + dt * u  # expect: global-captured-in-jit
    return x, x


def rollout(controls):
    return lax.scan(euler, 0.0, controls)[0]


def set_dt(value):
    global dt
    dt = value


if __name__ == "__main__":
    coarse = rollout(jnp.ones(3))
    set_dt(1.0)
    fine = rollout(jnp.ones(3))
    print("SHARP BIT: same end point after changing dt:", coarse, fine)
    assert float(coarse) == float(fine)
