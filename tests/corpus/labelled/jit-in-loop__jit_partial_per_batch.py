"""JAX FAQ: `jax.jit(partial(loss, cfg))(...)` in a function the training loop calls once per batch.

`functools.partial` makes a new callable on every call, so each batch traces and compiles the
loss again; jit it once (with `cfg` static) outside the loop.
"""
from functools import partial

import jax
import jax.numpy as jnp

trace_count = 0


def loss(cfg, w, x):
    global trace_count
    trace_count += 1
    return cfg["scale"] * jnp.sum((x @ w) ** 2)


def evaluate(cfg, w, x):
    return jax.jit(partial(loss, cfg))(w, x)  # expect: jit-in-loop


if __name__ == "__main__":
    cfg = {"scale": 0.5}
    for batch in [jnp.ones((4, 2))] * 3:
        evaluate(cfg, jnp.ones(2), batch)
    if trace_count > 1:
        print("SHARP BIT: 3 batches, traced", trace_count, "times")
