"""JAX FAQ ("jit decorated methods"): the loss jitted once, in `__init__`, and reused for every batch.

`self._jitted_loss` is one jit wrapper made before the loop, with the parameters passed as
arguments, so the loop traces once.
"""
import jax
import jax.numpy as jnp

trace_count = 0


def loss(w, x, y):
    global trace_count
    trace_count += 1
    return jnp.mean((x @ w - y) ** 2)


class Model:
    def __init__(self, n):
        self.w = jnp.zeros(n)
        self._grad = jax.jit(jax.grad(loss))

    def train_step(self, x, y):
        self.w = self.w - 0.1 * self._grad(self.w, x, y)


if __name__ == "__main__":
    model = Model(2)
    for _ in range(3):
        model.train_step(jnp.ones((4, 2)), jnp.ones(4))
    print("traced", trace_count, "time(s)")
