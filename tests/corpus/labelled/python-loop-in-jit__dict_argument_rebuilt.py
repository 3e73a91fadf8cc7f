"""An integrator whose state dict is the jitted function's argument, rebuilt by arithmetic on its own entries
for 300 steps: every leaf of a traced argument is a tracer, so all 300 iterations are unrolled.
"""
import jax
import jax.numpy as jnp


@jax.jit
def simulate(state: dict) -> dict:
    for _ in range(300):  # expect: python-loop-in-jit
        state = {"pos": state["pos"] + 0.01 * state["vel"], "vel": state["vel"] - 0.01 * state["pos"]}
    return state


if __name__ == "__main__":
    n = len(jax.make_jaxpr(simulate.__wrapped__)({"pos": jnp.ones(3), "vel": jnp.zeros(3)}).jaxpr.eqns)
    if n > 600:
        print("SHARP BIT: equations in the unrolled jaxpr:", n)
