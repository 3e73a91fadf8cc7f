"""A solver class stores its step count in `__init__` (`self.steps = steps`, default 800) and jits its own method
(`self.run = jax.jit(self._run)`): `self` is bound, so `range(self.steps)` is a Python range of 800 and the loop is
unrolled 800 times.
"""
import jax
import jax.numpy as jnp


class Relax:
    def __init__(self, rate: float, steps: int = 800):
        self.rate = rate
        self.steps = steps
        self.run = jax.jit(self._run)

    def _run(self, x):
        for _ in range(self.steps):  # expect: python-loop-in-jit
            x = x - self.rate * jnp.tanh(x)
        return x


if __name__ == "__main__":
    solver = Relax(0.1)
    n = len(jax.make_jaxpr(solver._run)(jnp.ones(3)).jaxpr.eqns)
    if n > 1000:
        print("SHARP BIT: equations in the unrolled jaxpr:", n)
