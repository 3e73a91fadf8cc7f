"""JAX tutorial "MLP from scratch" gone wrong: the init loop never splits the key.

Every layer of the same shape gets identical weights (a loop over a Python list, eager code).
"""
import jax.numpy as jnp
from jax import random

LAYER_SIZES = [16, 16, 16, 16, 1]


def init_mlp(key, sizes):
    params = []
    for n_in, n_out in zip(sizes[:-1], sizes[1:]):
        w = random.normal(key, (n_in, n_out)) * jnp.sqrt(2.0 / n_in)  # expect: prng-key-reuse
        params.append((w, jnp.zeros(n_out)))
    return params


if __name__ == "__main__":
    params = init_mlp(random.PRNGKey(0), LAYER_SIZES)
    print("SHARP BIT: layers 0 and 1 identical:", bool(jnp.allclose(params[0][0], params[1][0])))
