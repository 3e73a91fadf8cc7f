"""JAX FAQ ("jit decorated methods"): a trainer jits its own method in `__init__` (`self.step = jax.jit(self._step)`).

The method runs under jit with `self` bound: appending the loss to `self.losses` stores a tracer, once, at
trace time; later steps append nothing.
"""
import jax
import jax.numpy as jnp


class Trainer:
    def __init__(self):
        self.losses = []
        self.step = jax.jit(self._step)

    def _step(self, w, x):
        loss, g = jax.value_and_grad(lambda w: jnp.mean((x * w) ** 2))(w)
        self.losses.append(loss)  # expect: side-effect-in-jit
        return w - 0.1 * g


if __name__ == "__main__":
    t = Trainer()
    w = jnp.ones(())
    for _ in range(3):
        w = t.step(w, jnp.ones(4))
    if len(t.losses) == 1:
        print("SHARP BIT: 3 steps, 1 entry:", t.losses[0])
