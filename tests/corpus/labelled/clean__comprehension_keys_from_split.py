"""Deep-ensemble initialisation: keys bound per iteration by comprehensions over `jax.random.split`.

Each member and each named parameter gets its own key from the split, so every draw is distinct.
"""
import jax
import jax.numpy as jnp


def init_member(key, sizes):
    return [
        {"w": jax.random.normal(k, (m, n)) / jnp.sqrt(m), "b": jnp.zeros(n)}
        for k, m, n in zip(jax.random.split(key, len(sizes) - 1), sizes[:-1], sizes[1:])
    ]


def init_ensemble(key, n_members, sizes):
    return [init_member(member_key, sizes) for member_key in jax.random.split(key, n_members)]


def init_heads(key, names, dim):
    return {name: jax.random.normal(k, (dim,)) for name, k in zip(names, jax.random.split(key, len(names)))}


def noise_sum(key, shape, n=4):
    return sum(jax.random.normal(k, shape) for k in jax.random.split(key, n))


if __name__ == "__main__":
    members = init_ensemble(jax.random.PRNGKey(0), 3, [2, 4, 1])
    print(len(members), [p["w"].shape for p in members[0]])
    print(sorted(init_heads(jax.random.PRNGKey(1), ["mean", "scale"], 3)))
    print(noise_sum(jax.random.PRNGKey(2), (2,)))
