"""A trainer's `evaluate`, called once per epoch, builds `jax.pmap(self.eval_step)` on every call.

`jax.pmap` keys its cache on the function it is given, compared by equality, and two bound methods of one object
and one function are equal: the second and later calls find the first compilation (one trace for three epochs,
jax 0.10.2). `jax.jit` keeps no such cache (its bug twin, `jit-in-loop__jit_bound_method_per_evaluate.py`).
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
        parallel_eval_step = jax.pmap(self.eval_step, axis_name="batch")
        return [parallel_eval_step(x) for x in batches]

    def train(self, batches, epochs):
        for _ in range(epochs):
            self.evaluate(batches)


if __name__ == "__main__":
    devices = jax.local_device_count()
    Trainer(2).train([jnp.ones((devices, 4, 2))] * 2, epochs=3)
    if trace_count > 1:
        print("SHARP BIT: 3 epochs, traced", trace_count, "times")
    print("traced", trace_count, "time(s) for 3 epochs")
