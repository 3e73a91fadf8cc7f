"""Flax NNX: timing one `@nnx.jit` training step with `time.perf_counter()`, waiting for the loss with
`block_until_ready()` before the clock stops.
"""
import time

import jax.numpy as jnp
import optax
from flax import nnx


@nnx.jit
def train_step(model, optimizer, x, y):
    loss, grads = nnx.value_and_grad(lambda m: jnp.mean((m(x) - y) ** 2))(model)
    optimizer.update(model, grads)
    return loss


if __name__ == "__main__":
    model = nnx.Linear(64, 64, rngs=nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.sgd(1e-3), wrt=nnx.Param)
    x, y = jnp.ones((128, 64)), jnp.zeros((128, 64))
    train_step(model, optimizer, x, y).block_until_ready()
    t0 = time.perf_counter()
    loss = train_step(model, optimizer, x, y).block_until_ready()
    dt = time.perf_counter() - t0
    print(f"{dt * 1e3:.2f} ms", float(loss))
