"""A NamedTuple state argument advanced 400 times in a Python loop under jit (`s = State(s.x + dt * s.v, ...)`)."""
from typing import NamedTuple

import jax
import jax.numpy as jnp


class State(NamedTuple):
    x: jax.Array
    v: jax.Array


@jax.jit
def advance(s: State) -> State:
    for _ in range(400):  # expect: python-loop-in-jit
        s = State(s.x + 0.01 * s.v, s.v - 0.01 * s.x)
    return s


if __name__ == "__main__":
    n = len(jax.make_jaxpr(advance.__wrapped__)(State(jnp.ones(2), jnp.zeros(2))).jaxpr.eqns)
    if n > 800:
        print("SHARP BIT: equations in the unrolled jaxpr:", n)
