"""A trainer that keeps its parameters on `self` and rebinds them to the donating step's result.

`self.params = step(self.params, batch)` rebinds the attribute in the statement that donates it, so every later
read sees the new array; the old one's shape, read after the donation, is kept by a deleted array too (the twin
of donated-buffer-reuse__self_params_read_after_step).
"""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, donate_argnums=0)
def step(params, batch):
    return params - 0.1 * jnp.mean(batch, axis=0)


class Trainer:
    def __init__(self):
        self.params = jnp.zeros((4,))

    def train_step(self, batch):
        old_norm = jnp.sum(jnp.abs(self.params))
        new = step(self.params, batch)
        shape = self.params.shape
        self.params = new
        return jnp.sum(jnp.abs(self.params)) - old_norm, shape


if __name__ == "__main__":
    print(Trainer().train_step(jnp.ones((8, 4))))
