"""JAX jit docs ("caching"): a per-step helper that builds its jitted update every time it is called, and a
training loop that calls the helper once per step.
"""
import jax
import jax.numpy as jnp

trace_count = 0


def count_trace(x):
    global trace_count
    trace_count += 1
    return x


def sgd_step(w, g):
    update = jax.jit(lambda w, g: count_trace(w) - 0.01 * g)  # expect: jit-in-loop
    return update(w, g)


def train(w, grads):
    for g in grads:
        w = sgd_step(w, g)
    return w


if __name__ == "__main__":
    train(jnp.zeros(2), [jnp.ones(2)] * 4)
    if trace_count > 1:
        print("SHARP BIT: 4 steps, traced", trace_count, "times")
