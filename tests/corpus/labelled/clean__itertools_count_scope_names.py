"""JAX profiling docs (named scopes): a module-level `itertools.count()` gives each traced block a unique
name; `next()` on it is meant to run at trace time, once per traced block.
"""
import itertools

import jax
import jax.numpy as jnp

_block_ids = itertools.count()


def block(x, w):
    with jax.named_scope(f"block_{next(_block_ids)}"):
        return jnp.tanh(x @ w)


@jax.jit
def net(x, w1, w2):
    return block(block(x, w1), w2)


if __name__ == "__main__":
    print(net(jnp.ones((1, 3)), jnp.ones((3, 3)), jnp.ones((3, 2))).shape)
