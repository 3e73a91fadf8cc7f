"""A `fori_loop` carry that is a dict of arrays, written one key at a time (autopdex's stage update).

`q[key] = q[key].at[i].set(v)` for each `key` of `q.keys()` stores a new array under a dict key: the dict is a
Python container (the loop's pytree carry), not a JAX array, and each value is already an `.at[...].set` result.
"""
import jax
import jax.numpy as jnp


def update_body(i, q, stages):
    for key in q.keys():
        q[key] = q[key].at[stages[i]].set(i * 1.0)
    return q


@jax.jit
def run(state, stages):
    q, n = state
    return jax.lax.fori_loop(0, n, lambda i, q: update_body(i, q, stages), q)


if __name__ == "__main__":
    q = {name: jnp.zeros(3) for name in ("pos", "vel")}
    print(run((q, 3), jnp.array([2, 1, 0])))
