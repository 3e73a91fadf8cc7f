"""Issue 22's canonical case: a jitted simulator advances a dict carry for 200 steps in a Python loop.

The loop is unrolled into 200 copies of the update at trace time: compile time grows with the step count.
"""
import jax
import jax.numpy as jnp

DT = 0.01


@jax.jit
def simulate(state):
    for _ in range(200):  # expect: python-loop-in-jit
        pos = state["pos"] + DT * state["vel"]
        vel = state["vel"] - DT * state["pos"]
        state = {"pos": pos, "vel": vel}
    return state


if __name__ == "__main__":
    init = {"pos": jnp.ones(3), "vel": jnp.zeros(3)}
    text = simulate.lower(init).as_text()
    n = text.count("stablehlo.multiply")
    print(simulate(init)["pos"])
    if n >= 200:
        print("SHARP BIT: the loop was unrolled,", n, "multiplies in the program")
