"""Reading an array after donating it to a jitted function: "Array has been deleted"."""

from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, donate_argnums=0)
def sgd(params, grads):
    return params - 0.1 * grads


def train_step(params, grads):
    new_params = sgd(params, grads)
    print("update size", jnp.linalg.norm(new_params - params))
    return new_params


def train_step_right(params, grads):
    old_norm = jnp.linalg.norm(params)  # read before the call
    params = sgd(params, grads)  # rebind the name to the result
    return params, old_norm
