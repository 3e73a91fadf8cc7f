"""Twin: the state argument advanced with `lax.fori_loop`, and a Python loop over a jitted argument that only
re-arranges its structure (no arithmetic on its entries: nothing is added to the trace)."""
from typing import NamedTuple

import jax
import jax.numpy as jnp
from jax import lax


class State(NamedTuple):
    x: jax.Array
    v: jax.Array


@jax.jit
def advance(s: State) -> State:
    return lax.fori_loop(0, 400, lambda _, s: State(s.x + 0.01 * s.v, s.v - 0.01 * s.x), s)


@jax.jit
def rotate(state: dict) -> dict:
    names = sorted(state)
    for _ in range(100):
        state = {names[i]: state[names[i - 1]] for i in range(len(names))}
    return state


if __name__ == "__main__":
    print(advance(State(jnp.ones(2), jnp.zeros(2))).x, rotate({"a": jnp.ones(2), "b": jnp.zeros(2)})["a"])
