"""Flax linen: `eval_step(params, batch)` builds `jax.jit(lambda p, x: model.apply(p, x))` each time it is called,
and the evaluation loop calls it for every batch: a new lambda, a new compilation, per batch.
"""
import flax.linen as nn
import jax
import jax.numpy as jnp

model = nn.Dense(2)
compiled = []


def eval_step(params, batch):
    apply = jax.jit(lambda p, x: (compiled.append(1), model.apply(p, x))[1])  # expect: jit-in-loop
    return apply(params, batch)


if __name__ == "__main__":
    params = model.init(jax.random.key(0), jnp.ones((1, 3)))
    for batch in [jnp.ones((4, 3)), jnp.zeros((4, 3)), jnp.ones((4, 3))]:
        eval_step(params, batch)
    if len(compiled) == 3:
        print("SHARP BIT: 3 batches, 3 traces")
