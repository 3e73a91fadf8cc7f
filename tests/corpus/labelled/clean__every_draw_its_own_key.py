"""JAX PRNG docs: one split per layer, so four layers get four independent weight matrices.

The clean twin of prng-key-reuse__every_later_draw_reported.py.
"""
import jax
import jax.numpy as jnp


def init_layers(key, width):
    k1, k2, k3, k4 = jax.random.split(key, 4)
    w1 = jax.random.normal(k1, (width, width))
    w2 = jax.random.normal(k2, (width, width))
    w3 = jax.random.normal(k3, (width, width))
    w4 = jax.random.normal(k4, (width, width))
    return [w1, w2, w3, w4]


if __name__ == "__main__":
    ws = init_layers(jax.random.PRNGKey(0), 3)
    print("layer 4 differs from layer 1:", not bool(jnp.all(ws[0] == ws[3])))
