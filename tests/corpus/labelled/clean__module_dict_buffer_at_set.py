"""A ring buffer of observations kept in a module-level dict: the entry is replaced by an updated copy.

`BUFFERS["obs"] = BUFFERS["obs"].at[slot].set(row)` stores a new array in the dict (a dict is mutable), and the
NumPy scratch row is written in place as NumPy allows (the twin of in-place-update__module_dict_buffer_row).
"""
import jax.numpy as jnp
import numpy as np

BUFFERS = {"obs": jnp.zeros((4, 3)), "scratch": np.zeros(3), "count": 0}


def record(row):
    slot = BUFFERS["count"] % 4
    BUFFERS["scratch"][0] = float(row[0])
    BUFFERS["obs"] = BUFFERS["obs"].at[slot].set(row)
    BUFFERS["count"] += 1


if __name__ == "__main__":
    record(jnp.ones(3))
    print(BUFFERS["obs"], BUFFERS["scratch"])
