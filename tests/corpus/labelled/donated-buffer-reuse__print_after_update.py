"""Logging the old parameters after a donating SGD step.

`params` was donated to `sgd`: its buffers are deleted, so printing it raises RuntimeError: Array has been deleted.
"""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, donate_argnums=0)
def sgd(params, grads):
    return params - 0.1 * grads


def train_step(params, grads):
    new_params = sgd(params, grads)
    print("old norm", jnp.linalg.norm(params))  # expect: donated-buffer-reuse
    return new_params


if __name__ == "__main__":
    print(train_step(jnp.ones(3), jnp.ones(3)))
