"""JAX FAQ ("jit decorated methods"): `jax.jit(self._loss)(...)` inside a method the evaluation loop calls per batch.

A bound method is a new object on every attribute access and the jit wrapper is rebuilt on every
call of `evaluate`, so every batch traces (and compiles) again.
"""
import jax
import jax.numpy as jnp

trace_count = 0


class Model:
    def __init__(self, n):
        self.w = jnp.zeros(n)

    def _loss(self, w, x, y):
        global trace_count
        trace_count += 1
        return jnp.mean((x @ w - y) ** 2)

    def evaluate(self, x, y):
        return jax.jit(self._loss)(self.w, x, y)  # expect: jit-in-loop


if __name__ == "__main__":
    model = Model(2)
    for _ in range(3):
        model.evaluate(jnp.ones((4, 2)), jnp.ones(4))
    if trace_count > 1:
        print("SHARP BIT: 3 batches, traced", trace_count, "times")
