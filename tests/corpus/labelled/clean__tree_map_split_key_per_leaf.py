"""Noise added to every parameter with one key per leaf, mapped beside the parameters.

The keys are split to the number of leaves and rebuilt into the parameters' structure, so the lambda receives a
different key at each leaf (the twin of prng-key-reuse__tree_map_lambda_closes_over_key). A lambda over a single
array (one leaf) may close over its key too, and so may a shuffle of a batch: one key permutes the rows of every
leaf the same way, which keeps inputs and labels aligned.
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


def shuffle(batch, key):
    return jax.tree.map(lambda x: jax.random.permutation(key, x), batch)


if __name__ == "__main__":
    params = {"w": jnp.zeros((4,)), "b": jnp.zeros((4,))}
    noisy = perturb(params, jax.random.PRNGKey(0))
    if bool(jnp.all(noisy["w"] == noisy["b"])):
        print("SHARP BIT: every leaf got the same noise:", noisy["w"], noisy["b"])
    print(jitter(jnp.zeros(3), jax.random.PRNGKey(1)))
    batch = shuffle({"x": jnp.arange(8.0)[:, None] * jnp.ones(2), "y": jnp.arange(8.0)}, jax.random.PRNGKey(2))
    if not bool(jnp.all(batch["x"][:, 0] == batch["y"])):
        print("SHARP BIT: inputs and labels were shuffled apart")
