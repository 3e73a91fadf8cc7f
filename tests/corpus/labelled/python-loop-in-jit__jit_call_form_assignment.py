"""Sharp Bits / "Control flow": `step = jax.jit(simulate)`: the call form of jit also traces the loop.
"""
import jax
import jax.numpy as jnp

N_STEPS = 300


def simulate(theta):
    x = jnp.zeros_like(theta)
    for i in range(N_STEPS):  # expect: python-loop-in-jit
        x = x + 0.1 * (theta - x) * i
    return x


fast_simulate = jax.jit(simulate)


if __name__ == "__main__":
    print(fast_simulate(jnp.ones(3)))
    print("SHARP BIT: equations:", len(jax.make_jaxpr(simulate)(jnp.ones(3)).jaxpr.eqns))
