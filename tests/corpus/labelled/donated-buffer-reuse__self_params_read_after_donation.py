"""A trainer donates `self.params` to its jitted step to save memory, then computes the update norm from
`self.params` before rebinding it: the donated buffer is already deleted.
"""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, donate_argnums=0)
def sgd(params, grads):
    return params - 0.1 * grads


class Trainer:
    def __init__(self):
        self.params = jnp.ones(1024)

    def step(self, grads):
        new_params = sgd(self.params, grads)
        change = jnp.linalg.norm(new_params - self.params)  # expect: donated-buffer-reuse
        self.params = new_params
        return change


if __name__ == "__main__":
    print(Trainer().step(jnp.ones(1024)))
