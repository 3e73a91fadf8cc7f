"""Sharp Bits / "Control flow": the integrator with its dict state carried by `lax.fori_loop`.

One loop in the jaxpr whatever the step count. The Python `for` that remains walks the two keys
of the state dict (structure, not array work), and `state[name] = ...` writes a dict entry, not
an array element.
"""
import jax
import jax.numpy as jnp


def euler(_, state, dt=0.01):
    return {"pos": state["pos"] + dt * state["vel"], "vel": state["vel"] - dt * state["pos"]}


@jax.jit
def simulate(pos, vel):
    state = jax.lax.fori_loop(0, 200, euler, {"pos": pos, "vel": vel})
    for name in ("pos", "vel"):
        state[name] = jnp.nan_to_num(state[name])
    return state


if __name__ == "__main__":
    print(simulate(jnp.ones(3), jnp.zeros(3)))
