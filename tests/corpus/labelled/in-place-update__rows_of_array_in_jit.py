"""The twin of clean__list_of_objects_in_jit: the jitted function is handed an array whose rows are only used as
arrays (`row.sum()`), so `rows[i] = ...` assigns into a JAX array: TypeError.
"""
import jax
import jax.numpy as jnp


@jax.jit
def step(rows, dt):
    centre = jnp.mean(jnp.stack([row.sum() for row in rows]))
    i = 0
    rows[i] = rows[i] + dt * centre  # expect: in-place-update
    return rows


if __name__ == "__main__":
    try:
        step(jnp.ones((2, 3)), 0.1)
    except TypeError:
        print("SHARP BIT: item assignment into a JAX array raises TypeError")
