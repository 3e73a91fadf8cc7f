"""Flax linen: the evaluation step is `jax.jit(model.apply)`, built once at module level, and the evaluation loop
calls it for every batch: one compilation.
"""
import flax.linen as nn
import jax
import jax.numpy as jnp

model = nn.Dense(2)
apply = jax.jit(model.apply)


def eval_step(params, batch):
    return apply(params, batch)


if __name__ == "__main__":
    params = model.init(jax.random.key(0), jnp.ones((1, 3)))
    for batch in [jnp.ones((4, 3)), jnp.zeros((4, 3)), jnp.ones((4, 3))]:
        eval_step(params, batch)
    print(apply._cache_size())
