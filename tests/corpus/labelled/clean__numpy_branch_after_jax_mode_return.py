"""A substrate written for both NumPy and JAX (TensorFlow Probability's JAX backend is generated so): the module
sets `JAX_MODE = True`, and every function returns inside `if JAX_MODE:` before its NumPy-only loop, whose item
assignment would raise on a JAX array. That code never runs (round 37).
"""
import jax.numpy as jnp

JAX_MODE = True


def cumulative(x):
    if JAX_MODE:
        return jnp.cumsum(x)
    out = jnp.zeros_like(x)
    total = 0.0
    for i in range(x.shape[0]):
        total += x[i]
        out[i] = total
    return out


if __name__ == "__main__":
    print(cumulative(jnp.arange(4.0)))
