"""An equivalence test (jax-envelope's vmap wrapper): the wrapper's `init(key)` must equal `vmap(env.init)` over
`split(key, n)`, which is how the wrapper makes its keys, so the test hands both the same key on purpose and
compares the two states leaf by leaf with `jax.tree.map(lambda a, b: jnp.allclose(a, b), ...)`."""
import jax
import jax.numpy as jnp


def env_init(key):
    return {"pos": jax.random.uniform(key, (2,)), "vel": jnp.zeros(2)}


def batched_init(key, n):
    return jax.vmap(env_init)(jax.random.split(key, n))


def test_batched_init_matches_manual_vmap():
    key = jax.random.key(0)
    keys = jax.random.split(key, 3)
    s_wrapped = batched_init(key, 3)
    s_manual = jax.vmap(env_init)(keys)
    assert jax.tree_util.tree_all(jax.tree.map(lambda a, b: jnp.allclose(a, b), s_wrapped, s_manual))


if __name__ == "__main__":
    test_batched_init_matches_manual_vmap()
    print("equal")
