"""A PPO trainer in the navix style: the per-environment reset keys were once made by a `lax.scan` that splits
the key, and a later edit replaced them with `split(key, num_envs)` without deleting the scan. The scan's keys
are overwritten before anything reads them (its carry goes to `_`), so no computation sees both sets of keys:
dead code, not correlated draws.
"""
import jax
import jax.numpy as jnp


def reset_env(key):
    return jax.random.uniform(key, (3,))


def init_envs(rng, num_envs):
    rng, _rng = jax.random.split(rng)
    _, reset_rng = jax.lax.scan(
        lambda x, _: (jax.random.split(x)[1], jax.random.split(x)[1]),
        _rng,
        None,
        num_envs,
    )
    reset_rng = jax.random.split(_rng, num_envs)
    return rng, jax.vmap(reset_env)(reset_rng)


if __name__ == "__main__":
    _, states = init_envs(jax.random.PRNGKey(0), 4)
    assert int(jnp.unique(states[:, 0]).size) == 4
    print("passed")
