"""A ring buffer of observations kept in a module-level dict of JAX arrays, written row by row.

`BUFFERS["obs"]` is a JAX array (`jnp.zeros`): `BUFFERS["obs"][slot] = row` raises TypeError (JAX arrays are
immutable), as it would on a local. Store the updated copy back instead (see clean__module_dict_buffer_at_set).
"""
import jax.numpy as jnp

BUFFERS = {"obs": jnp.zeros((4, 3)), "count": 0}


def record(row):
    slot = BUFFERS["count"] % 4
    BUFFERS["obs"][slot] = row  # expect: in-place-update
    BUFFERS["count"] += 1


if __name__ == "__main__":
    record(jnp.ones(3))
    print(BUFFERS["obs"])
