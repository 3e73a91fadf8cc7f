"""Noise added to every parameter with one key per leaf, mapped beside the parameters.

The keys are split to the number of leaves and rebuilt into the parameters' structure, so the lambda receives a
different key at each leaf (the twin of prng-key-reuse__tree_map_lambda_closes_over_key). A lambda over a single
array (one leaf) may close over its key too.
"""
import jax
import jax.numpy as jnp


def perturb(params, key, scale=0.1):
    leaves, treedef = jax.tree.flatten(params)
    keys = jax.tree.unflatten(treedef, list(jax.random.split(key, len(leaves))))
    return jax.tree.map(lambda p, k: p + scale * jax.random.normal(k, p.shape), params, keys)


def jitter(x, key):
    x = jnp.asarray(x)
    return jax.tree.map(lambda v: v + jax.random.normal(key, v.shape), x)


if __name__ == "__main__":
    params = {"w": jnp.zeros((4,)), "b": jnp.zeros((4,))}
    noisy = perturb(params, jax.random.PRNGKey(0))
    if bool(jnp.all(noisy["w"] == noisy["b"])):
        print("SHARP BIT: every leaf got the same noise:", noisy["w"], noisy["b"])
    print(jitter(jnp.zeros(3), jax.random.PRNGKey(1)))
