"""A 1000-iteration Python loop under jit (unrolled: 3,000 equations, slow to compile) and its lax.fori_loop twin.

    sharpbits trace examples/tracing_loops.py::python_loop
    sharpbits trace examples/tracing_loops.py::fori_twin
"""

import jax
import jax.numpy as jnp
from jax import lax


# sharpbits: trace(x=f32[1000], steps=1000)
def python_loop(x, steps):
    for _ in range(steps):  # unrolled at trace time: one body per iteration
        x = 0.5 * x + jnp.sin(x)
    return x


# sharpbits: trace(x=f32[1000], steps=1000)
def fori_twin(x, steps):
    return lax.fori_loop(0, steps, lambda i, x: 0.5 * x + jnp.sin(x), x)  # one body, a while loop in HLO


if __name__ == "__main__":
    x = jnp.ones(1000)
    print(jnp.allclose(jax.jit(python_loop, static_argnums=1)(x, 1000), jax.jit(fori_twin, static_argnums=1)(x, 1000)))
