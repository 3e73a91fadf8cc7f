"""The bug twin: the two states are added leaf by leaf (a tree map that computes, not compares), so the sum holds
every position twice: the "two" initial states are one."""
import jax
import jax.numpy as jnp


def env_init(key):
    return {"pos": jax.random.uniform(key, (2,)), "vel": jnp.zeros(2)}


def batched_init(key, n):
    return jax.vmap(env_init)(jax.random.split(key, n))


def combined_state():
    key = jax.random.key(0)
    keys = jax.random.split(key, 3)
    s_wrapped = batched_init(key, 3)  # expect: prng-key-reuse
    s_manual = jax.vmap(env_init)(keys)
    return jax.tree.map(lambda a, b: a + b, s_wrapped, s_manual)


if __name__ == "__main__":
    state = combined_state()
    print(state["pos"])  # twice the same uniforms
