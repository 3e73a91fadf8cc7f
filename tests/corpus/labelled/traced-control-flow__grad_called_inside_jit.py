"""Sharp Bits ("Control flow"): `jax.grad(loss)(w)` called inside a jitted step; `loss` branches in Python.

Alone, `jax.grad(loss)(w)` runs `loss` on values and the `if` works; inside `jax.jit` the gradient is taken
under the trace, so `loss` sees abstract tracers: TracerBoolConversionError.
"""
import jax
import jax.numpy as jnp


def loss(w):
    if w > 0:  # expect: traced-control-flow
        return w ** 2
    return -w


@jax.jit
def step(w):
    return w - 0.1 * jax.grad(loss)(w)


if __name__ == "__main__":
    print(jax.grad(loss)(jnp.float32(2.0)))  # fine on its own
    print(step(jnp.float32(2.0)))
