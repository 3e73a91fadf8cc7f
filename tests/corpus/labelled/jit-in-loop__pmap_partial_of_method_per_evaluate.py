"""A trainer's `evaluate`, called once per epoch, builds `jax.pmap(functools.partial(self.eval_step, scale))`.

`jax.pmap` finds an equal function again (a bound method of the same object), but a `functools.partial` is a new
object that compares equal to nothing: every epoch traces and compiles again (three traces, jax 0.10.2).
"""
import functools

import jax
import jax.numpy as jnp

trace_count = 0


class Trainer:
    def __init__(self, n):
        self.w = jnp.ones(n)

    def eval_step(self, scale, x):
        global trace_count
        trace_count += 1
        return scale * (x @ self.w)

    def evaluate(self, batches):
        step = jax.pmap(functools.partial(self.eval_step, 2.0), axis_name="batch")  # expect: jit-in-loop
        return [step(x) for x in batches]

    def train(self, batches, epochs):
        for _ in range(epochs):
            self.evaluate(batches)


if __name__ == "__main__":
    devices = jax.local_device_count()
    Trainer(2).train([jnp.ones((devices, 4, 2))] * 2, epochs=3)
    if trace_count > 1:
        print("SHARP BIT: 3 epochs, traced", trace_count, "times")
