"""A trainer jits its own bound method (`self._step = jax.jit(self.step)`), and the step keeps the last loss on
`self` for the progress bar: the attribute receives a tracer at trace time, which leaks out of the trace.
"""
import jax
import jax.numpy as jnp


class Trainer:
    def __init__(self):
        self.last_loss = None
        self._step = jax.jit(self.step)

    def step(self, w, x):
        loss, g = jax.value_and_grad(lambda w: jnp.mean((x @ w - 1.0) ** 2))(w)
        self.last_loss = loss  # expect: side-effect-in-jit
        return w - 0.1 * g


if __name__ == "__main__":
    t = Trainer()
    w = t._step(jnp.zeros(3), jnp.ones((4, 3)))
    try:
        print(jnp.round(t.last_loss, 3))
    except Exception as err:
        print("SHARP BIT:", type(err).__name__)
