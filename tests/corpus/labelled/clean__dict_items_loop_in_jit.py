"""Pytrees docs: iterating over a dict of parameters (keys, items, sorted names, comprehensions) inside
jit unrolls over the fixed structure of the pytree, not over array elements.
"""
import jax
import jax.numpy as jnp


@jax.jit
def weight_norms(params):
    norms = {}
    for name, value in params.items():
        norms[name] = jnp.linalg.norm(value)
    return norms


@jax.jit
def decayed(params, rate=1e-2):
    return {name: params[name] * (1.0 - rate) for name in sorted(params)}


@jax.jit
def total_size_penalty(layers):
    return sum(jnp.sum(layer["w"] ** 2) for layer in layers)


if __name__ == "__main__":
    params = {"w": jnp.ones((2, 2)), "b": jnp.ones(2)}
    print(weight_norms(params), decayed(params), total_size_penalty([params, params]))
