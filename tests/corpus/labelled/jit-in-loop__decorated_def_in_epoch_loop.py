"""Epoch loop that defines its jitted step with a decorator inside the loop body."""
import jax
import jax.numpy as jnp

TRACES = []


def fit(w, x, epochs=3):
    for epoch in range(epochs):
        @jax.jit  # expect: jit-in-loop
        def step(w):
            TRACES.append(1)
            return w - 0.1 * jax.grad(lambda w: jnp.sum((x @ w) ** 2))(w)
        w = step(w)
    return w


if __name__ == "__main__":
    fit(jnp.ones(2), jnp.ones((3, 2)))
    if len(TRACES) > 1:
        print(f"SHARP BIT: {len(TRACES)} traces for 3 epochs")
