"""Twin: the scan body prints each step's state with `jax.debug.print`."""
import jax
import jax.numpy as jnp
from jax import lax


class Filter:
    def __init__(self, alpha: float):
        self.alpha = alpha

    def _step(self, state, x):
        state = self.alpha * state + (1 - self.alpha) * x
        jax.debug.print("state {s}", s=state)
        return state, state

    def run(self, xs):
        return lax.scan(self._step, jnp.zeros(()), xs)[1]


if __name__ == "__main__":
    print(Filter(0.5).run(jnp.ones(5)))
