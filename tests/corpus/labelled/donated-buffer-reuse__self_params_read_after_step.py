"""A trainer that keeps its parameters on `self` and logs the old ones after a donating step.

`step` donates its first argument: `new = step(self.params, batch)` deletes the buffer `self.params` still
points to, so reading `self.params` before it is rebound raises RuntimeError: Array has been deleted. The
idiom `self.params = step(self.params, batch)` rebinds it in the same statement
(see clean__self_params_rebound_by_step).
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
        new = step(self.params, batch)
        drift = jnp.sum(jnp.abs(new - self.params))  # expect: donated-buffer-reuse
        self.params = new
        return drift


if __name__ == "__main__":
    print(Trainer().train_step(jnp.ones((8, 4))))
