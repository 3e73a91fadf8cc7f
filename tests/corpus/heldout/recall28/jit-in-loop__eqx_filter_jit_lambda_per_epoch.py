"""Equinox: an evaluation loop builds `eqx.filter_jit(lambda m, x: m(x))` inside the epoch loop; the lambda is
a new function each epoch, so every epoch traces and compiles the model again.
"""
import equinox as eqx
import jax
import jax.numpy as jnp

traces = []


class Model(eqx.Module):
    linear: eqx.nn.Linear

    def __call__(self, x):
        traces.append(1)
        return self.linear(x)


if __name__ == "__main__":
    model = Model(eqx.nn.Linear(3, 1, key=jax.random.key(0)))
    for epoch in range(4):
        evaluate = eqx.filter_jit(lambda m, x: m(x))  # expect: jit-in-loop
        evaluate(model, jnp.ones(3))
    if len(traces) == 4:
        print("SHARP BIT: 4 epochs, 4 traces of the model")
