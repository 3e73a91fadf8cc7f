"""JAX jit docs ("caching"): `jax.jit(functools.partial(loss, cfg))` inside the epoch loop.

A `partial` object is new each time it is created, so each epoch retraces and recompiles.
"""
import functools

import jax
import jax.numpy as jnp

trace_count = 0


def loss(cfg, w, x):
    global trace_count
    trace_count += 1
    return cfg["scale"] * jnp.sum((w - x) ** 2)


def fit(w, x, cfg, epochs=4):
    for _ in range(epochs):
        value, grad = jax.jit(jax.value_and_grad(functools.partial(loss, cfg)))(w, x)  # expect: jit-in-loop
        w = w - 0.1 * grad
    return w


if __name__ == "__main__":
    fit(jnp.zeros(2), jnp.ones(2), {"scale": 0.5})
    if trace_count > 1:
        print("SHARP BIT: 4 epochs, traced", trace_count, "times")
