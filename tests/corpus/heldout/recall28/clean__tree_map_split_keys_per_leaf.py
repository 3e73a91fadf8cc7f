"""Perturbing every leaf of a parameter pytree with its own key: the keys are split to the number of leaves and
unflattened into the tree's structure, then `jax.tree.map` pairs each leaf with its key (evolution strategies).
"""
import jax
import jax.numpy as jnp


def perturb(params, key, eps=0.01):
    leaves, treedef = jax.tree.flatten(params)
    keys = jax.tree.unflatten(treedef, list(jax.random.split(key, len(leaves))))
    return jax.tree.map(lambda p, k: p + eps * jax.random.normal(k, p.shape), params, keys)


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
