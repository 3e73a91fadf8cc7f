"""A trainer's `evaluate`, called once per epoch, builds `jax.jit(self.eval_step)` on every call.

Unlike `jax.pmap` (`clean__pmap_bound_method_per_evaluate.py`), `jax.jit` of a new bound method misses its cache:
every epoch traces and compiles the step again (three traces for three epochs, jax 0.10.2).
"""
import jax
import jax.numpy as jnp

trace_count = 0


class Trainer:
    def __init__(self, n):
        self.w = jnp.ones(n)

    def eval_step(self, x):
        global trace_count
        trace_count += 1
        return x @ self.w

    def evaluate(self, batches):
        eval_step = jax.jit(self.eval_step)  # expect: jit-in-loop
        return [eval_step(x) for x in batches]

    def train(self, batches, epochs):
        for _ in range(epochs):
            self.evaluate(batches)


if __name__ == "__main__":
    Trainer(2).train([jnp.ones((4, 2))] * 2, epochs=3)
    if trace_count > 1:
        print("SHARP BIT: 3 epochs, traced", trace_count, "times")
