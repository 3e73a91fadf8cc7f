"""A simulator factory called once per temperature (as jax-md's tests do): each iteration gets a new step
function closed over that temperature and jits it. There is no cache to miss and nothing to hoist.
"""
import jax
import jax.numpy as jnp


def make_simulator(temperature):
    def init(x):
        return {"x": x, "t": jnp.zeros(())}

    def apply(state):
        return {"x": state["x"] * jnp.exp(-0.1 / temperature), "t": state["t"] + 0.1}

    return init, apply


if __name__ == "__main__":
    for temperature in [0.5, 1.0, 2.0]:
        init, apply = make_simulator(temperature)
        apply = jax.jit(apply)
        state = init(jnp.ones(3))
        for _ in range(5):
            state = apply(state)
        print(temperature, state["x"])
