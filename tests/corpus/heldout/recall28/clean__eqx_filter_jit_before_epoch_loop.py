"""Equinox: the evaluation function `eqx.filter_jit(lambda m, x: m(x))` is built once before the epoch loop,
so the model is traced once.
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
    evaluate = eqx.filter_jit(lambda m, x: m(x))
    for epoch in range(4):
        evaluate(model, jnp.ones(3))
    if len(traces) != 1:
        print("SHARP BIT: 4 epochs,", len(traces), "traces of the model")
