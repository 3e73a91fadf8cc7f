"""JAX jit docs ("caching"): `jax.jit(lambda ...)` written inside the training loop.

Each iteration makes a new lambda, so jit's cache (keyed on the function object) misses: traced every step.
"""
import jax
import jax.numpy as jnp

trace_count = 0


def count_trace(x):
    global trace_count
    trace_count += 1
    return x


def train(w, xs, lr=0.1):
    for x in xs:
        w = jax.jit(lambda w, x: count_trace(w) - lr * (w - x))(w, x)  # expect: jit-in-loop
    return w


if __name__ == "__main__":
    train(jnp.zeros(3), [jnp.ones(3)] * 5)
    if trace_count > 1:
        print("SHARP BIT: 5 steps, traced", trace_count, "times")
