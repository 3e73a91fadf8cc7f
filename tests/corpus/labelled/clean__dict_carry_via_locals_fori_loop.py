"""Clean twin: the same 200-step simulator with its dict carry threaded through `lax.fori_loop`."""
import jax
import jax.numpy as jnp
from jax import lax

DT = 0.01


def body(_, state):
    pos = state["pos"] + DT * state["vel"]
    vel = state["vel"] - DT * state["pos"]
    return {"pos": pos, "vel": vel}


@jax.jit
def simulate(state):
    return lax.fori_loop(0, 200, body, state)


if __name__ == "__main__":
    init = {"pos": jnp.ones(3), "vel": jnp.zeros(3)}
    print(simulate(init)["pos"])
