"""JAX FAQ ("jit decorated methods"): `jax.jit(self.predict)` inside a model's fit loop.

A bound method is a new object on every attribute access, so every iteration traces again.
"""
import jax
import jax.numpy as jnp

trace_count = 0


class Regressor:
    def __init__(self, n):
        self.w = jnp.zeros(n)

    def predict(self, x):
        global trace_count
        trace_count += 1
        return x @ self.w

    def fit(self, xs, ys):
        for x, y in zip(xs, ys):
            pred = jax.jit(self.predict)(x)  # expect: jit-in-loop
            self.w = self.w + 0.01 * x.T @ (y - pred)
        return self


if __name__ == "__main__":
    Regressor(2).fit([jnp.ones((4, 2))] * 3, [jnp.ones(4)] * 3)
    if trace_count > 1:
        print("SHARP BIT: 3 batches, traced", trace_count, "times")
