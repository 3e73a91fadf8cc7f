"""Sharp Bits: "Pure functions": a plain class that sets its attributes in `__init__` (eager) and whose
jitted function only reads them; nothing is written under the trace.
"""
import jax
import jax.numpy as jnp


class Linear:
    def __init__(self, key, n_in, n_out):
        self.w = jax.random.normal(key, (n_in, n_out)) / jnp.sqrt(n_in)
        self.b = jnp.zeros(n_out)
        self.history = []

    def __call__(self, x):
        return x @ self.w + self.b


if __name__ == "__main__":
    layer = Linear(jax.random.key(0), 3, 2)
    apply = jax.jit(lambda w, b, x: x @ w + b)
    out = apply(layer.w, layer.b, jnp.ones((4, 3)))
    layer.history.append(out)
    print(out.shape)
