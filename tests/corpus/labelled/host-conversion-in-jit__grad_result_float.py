"""Sharp Bits / "Control flow" (concrete values): `float()` of what `jax.grad` returned, under jit.

The gradient computed inside the jitted function is traced; `float(g[0])` needs a concrete value
and raises ConcretizationTypeError while tracing.
"""
import jax
import jax.numpy as jnp


def energy(x):
    return jnp.sum(x**4 - 2.0 * x**2)


@jax.jit
def descend(x):
    g = jax.grad(energy)(x)
    step = 0.1 / max(1.0, float(g[0]))  # expect: host-conversion-in-jit
    return x - step * g


if __name__ == "__main__":
    print(descend(jnp.array([1.5, -0.5])))
