"""JAX jit docs ("caching"): a per-step helper binds its update to a name first and jits that name. The lambda is
still a new object on every call, so each step traces and compiles it again; the loop passes nothing the lambda
reads (`lr` is the same every call).
"""
import jax
import jax.numpy as jnp

trace_count = 0


def count_trace(x):
    global trace_count
    trace_count += 1
    return x


def sgd_step(w, g, lr):
    update = lambda w, g: count_trace(w) - lr * g
    return jax.jit(update)(w, g)  # expect: jit-in-loop


def train(w, grads, lr=0.01):
    for g in grads:
        w = sgd_step(w, g, lr)
    return w


if __name__ == "__main__":
    train(jnp.zeros(2), [jnp.ones(2)] * 4)
    if trace_count > 1:
        print("SHARP BIT: 4 steps, traced", trace_count, "times")
