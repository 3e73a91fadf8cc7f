"""Sharp Bits / "Control flow" (concrete values): the gradient kept as an array under jit, converted after.

`jnp.maximum` keeps the step size on device; `float()` is applied to the jitted call's result,
which is concrete.
"""
import jax
import jax.numpy as jnp


def energy(x):
    return jnp.sum(x**4 - 2.0 * x**2)


@jax.jit
def descend(x):
    g = jax.grad(energy)(x)
    step = 0.1 / jnp.maximum(1.0, g[0])
    return x - step * g, g


if __name__ == "__main__":
    x, g = descend(jnp.array([1.5, -0.5]))
    print(x, "first gradient component", float(g[0]))
