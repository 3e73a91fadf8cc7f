"""Flax NNX: timing one `@nnx.jit` training step with `time.perf_counter()`. `nnx.jit` writes the new parameter
arrays into the model and returns the loss as soon as the work is queued, so the clock stops early.
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
    model = nnx.Linear(1024, 1024, rngs=nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.sgd(1e-3), wrt=nnx.Param)
    x, y = jnp.ones((2048, 1024)), jnp.zeros((2048, 1024))
    train_step(model, optimizer, x, y).block_until_ready()
    t0 = time.perf_counter()
    loss = train_step(model, optimizer, x, y)  # expect: unblocked-timing
    dt = time.perf_counter() - t0
    if not loss.is_ready():
        print(f"SHARP BIT: the loss was not ready when the clock stopped ({dt * 1e3:.2f} ms)")
