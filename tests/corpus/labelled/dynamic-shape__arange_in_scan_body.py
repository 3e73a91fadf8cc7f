"""A `lax.scan` body that builds `jnp.arange(t)` from its step counter.

Inside the scan body the counter is traced: ConcretizationTypeError. Use a fixed-length arange and a mask.
"""
import jax
import jax.numpy as jnp


def step(t, x):
    weights = jnp.arange(t + 1)  # expect: dynamic-shape
    return t + 1, x * weights.sum()


def run(xs):
    return jax.lax.scan(step, 0, xs)


if __name__ == "__main__":
    print(run(jnp.ones(4)))
