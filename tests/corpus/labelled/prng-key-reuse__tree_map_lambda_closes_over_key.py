"""Noise added to every parameter by a `jax.tree.map` lambda that closes over one key.

`jax.tree.map` calls the lambda once per leaf with the same `key`, so every leaf of one shape gets exactly the
same noise: the "independent" perturbations of `w` and `b` below are equal. Splitting one key per leaf and mapping
the keys with the parameters fixes it (see clean__tree_map_split_key_per_leaf).
"""
import jax
import jax.numpy as jnp


def perturb(params, key, scale=0.1):
    return jax.tree.map(lambda p: p + scale * jax.random.normal(key, p.shape), params)  # expect: prng-key-reuse


if __name__ == "__main__":
    params = {"w": jnp.zeros((4,)), "b": jnp.zeros((4,))}
    noisy = perturb(params, jax.random.PRNGKey(0))
    if bool(jnp.all(noisy["w"] == noisy["b"])):
        print("SHARP BIT: every leaf got the same noise:", noisy["w"], noisy["b"])
