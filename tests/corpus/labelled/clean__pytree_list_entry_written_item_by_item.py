"""A jitted audio tick whose state dict holds Python lists of filter states, updated item by item.

`init_state()` builds each entry as a list (one state per comb filter). Under jit a pytree's lists stay Python
lists, so `state["combs"][i] = new` replaces a list item: no array is written in place (the twin of
in-place-update__pytree_array_entry_written_row_by_row, where the entry is one stacked array).
"""
import jax
import jax.numpy as jnp

DELAYS = [3, 5]


def init_state():
    return {"combs": [jnp.zeros(n) for n in DELAYS], "gain": jnp.float32(0.5)}


def comb_tick(buffer, x, gain):
    out = buffer[-1]
    return jnp.roll(buffer, 1).at[0].set(x + gain * out), out


@jax.jit
def tick(state, x):
    state["combs"][0], out0 = comb_tick(state["combs"][0], x, state["gain"])
    state["combs"][1], out1 = comb_tick(state["combs"][1], x, state["gain"])
    return state, out0 + out1


if __name__ == "__main__":
    state = init_state()
    for x in [1.0, 0.0, 0.0, 0.0]:
        state, y = tick(state, x)
    print(y, [c.shape for c in state["combs"]])
