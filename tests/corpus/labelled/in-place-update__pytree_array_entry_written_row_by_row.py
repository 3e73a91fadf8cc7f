"""A jitted audio tick whose state dict holds one stacked array of filter states, written row by row.

`init_state()` builds the "combs" entry as a single JAX array (one row per comb filter), so inside the jitted
tick `state["combs"][i] = new` is an in-place update of a JAX array: TypeError. Keep a list of rows (see
clean__pytree_list_entry_written_item_by_item) or use `.at[i].set(new)`.
"""
import jax
import jax.numpy as jnp

N_COMBS = 2


def init_state():
    return {"combs": jnp.zeros((N_COMBS, 7)), "gain": jnp.float32(0.5)}


def comb_tick(buffer, x, gain):
    out = buffer[-1]
    return jnp.roll(buffer, 1).at[0].set(x + gain * out), out


@jax.jit
def tick(state, x):
    state["combs"][0], out0 = comb_tick(state["combs"][0], x, state["gain"])  # expect: in-place-update
    state["combs"][1], out1 = comb_tick(state["combs"][1], x, state["gain"])  # expect: in-place-update
    return state, out0 + out1


if __name__ == "__main__":
    state = init_state()
    for x in [1.0, 0.0, 0.0, 0.0]:
        state, y = tick(state, x)
    print(y)
