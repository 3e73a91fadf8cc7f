"""Sharp Bits: "In-place updates" in a method jitted with `@partial(jax.jit, static_argnums=0)`.

`self` is static, but `state` is a traced array: incrementing an entry in place raises TypeError.
"""
from functools import partial

import jax
import jax.numpy as jnp


class Counter:
    def __init__(self, num_bins):
        self.num_bins = num_bins

    @partial(jax.jit, static_argnums=0)
    def observe(self, state, value):
        b = jnp.clip(value, 0, self.num_bins - 1)
        state[b] += 1  # expect: in-place-update
        return state


if __name__ == "__main__":
    c = Counter(4)
    print(c.observe(jnp.zeros(4, jnp.int32), 2))
