"""Perturbing every leaf of a parameter pytree with `jax.tree.map(lambda p: p + eps * normal(key, p.shape), params)`:
the lambda closes over one key, so leaves of the same shape receive the very same noise (evolution strategies).
"""
import jax
import jax.numpy as jnp


def perturb(params, key, eps=0.01):
    return jax.tree.map(lambda p: p + eps * jax.random.normal(key, p.shape), params)  # expect: prng-key-reuse


def init(key):
    k1, k2 = jax.random.split(key)
    return {"w1": jax.random.normal(k1, (3, 3)), "w2": jax.random.normal(k2, (3, 3))}


if __name__ == "__main__":
    params = init(jax.random.key(0))
    noisy = perturb(params, jax.random.key(1))
    d1 = noisy["w1"] - params["w1"]
    d2 = noisy["w2"] - params["w2"]
    if bool(jnp.allclose(d1, d2, atol=1e-6)):
        print("SHARP BIT: both weight matrices got the same perturbation")
