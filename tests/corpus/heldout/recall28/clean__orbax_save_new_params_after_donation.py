"""Checkpointing with orbax after a donating jitted update: the script rebinds `params` to the update's result
and saves that.
"""
import tempfile
from functools import partial

import jax
import jax.numpy as jnp
import orbax.checkpoint as ocp


@partial(jax.jit, donate_argnums=0)
def update(params, grads):
    return jax.tree.map(lambda p, g: p - 0.1 * g, params, grads)


if __name__ == "__main__":
    params = {"w": jnp.ones(256), "b": jnp.zeros(4)}
    grads = {"w": jnp.ones(256), "b": jnp.ones(4)}
    params = update(params, grads)
    with tempfile.TemporaryDirectory() as d:
        ckptr = ocp.StandardCheckpointer()
        ckptr.save(f"{d}/step1", params)
        ckptr.wait_until_finished()
