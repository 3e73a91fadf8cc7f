"""Autodiff cookbook: a piecewise loss with a Python `if`, differentiated and then jitted.

`jax.grad` alone would run on concrete values, but `jax.jit(jax.grad(...))` traces the loss abstractly:
TracerBoolConversionError.
"""
import jax
import jax.numpy as jnp


def huber(r, delta=1.0):
    if jnp.abs(r) < delta:  # expect: traced-control-flow
        return 0.5 * r ** 2
    return delta * (jnp.abs(r) - 0.5 * delta)


huber_grad = jax.jit(jax.grad(huber))

if __name__ == "__main__":
    print(huber_grad(0.3))
