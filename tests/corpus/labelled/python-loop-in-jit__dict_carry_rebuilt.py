"""Sharp Bits / "Control flow": an integrator under jit whose state dict is rebuilt on every step.

The loop carries arrays (`state = {"pos": ..., "vel": ...}`), not pytree structure: all 200
iterations are unrolled into the jaxpr. `lax.fori_loop` with the dict as its carry keeps one loop.
"""
import jax
import jax.numpy as jnp


@jax.jit
def simulate(pos, vel):
    state = {"pos": pos, "vel": vel}
    for _ in range(200):  # expect: python-loop-in-jit
        state = {"pos": state["pos"] + 0.01 * state["vel"], "vel": state["vel"] - 0.01 * state["pos"]}
    return state


if __name__ == "__main__":
    jaxpr = jax.make_jaxpr(simulate.__wrapped__)(jnp.ones(3), jnp.zeros(3))
    print("SHARP BIT: equations in the unrolled jaxpr:", len(jaxpr.jaxpr.eqns))
