"""A jitted function's Python body runs once, at trace time: appending to an outer list or bumping a global
there happens once, and stores a tracer, not a number."""

import jax
import jax.numpy as jnp

losses = []
steps = 0


@jax.jit
def step(w, x):
    global steps
    loss = jnp.mean((x @ w) ** 2)
    losses.append(loss)
    steps += 1
    return w - 0.1 * x.T @ (x @ w)


@jax.jit
def step_right(w, x):
    loss = jnp.mean((x @ w) ** 2)
    jax.debug.callback(lambda v: losses.append(float(v)), loss)  # runs on every call, on the host
    return w - 0.1 * x.T @ (x @ w), loss
