"""The bug twin: the same steps outside a test (a rollout that checks its wrapper on the way): the actions are
the normal numbers of the key whose split keys drew the states, so the rollout is fed actions correlated with its
start; only a test comparing two implementations may share them on purpose."""
import jax
import jax.numpy as jnp


class Env:
    def init(self, key):
        return jax.random.uniform(key, (2,))

    def step(self, state, action):
        return state + action


class VmapWrapper:
    def __init__(self, env, batch_size):
        self.env, self.batch_size = env, batch_size

    def init(self, key):
        return jax.vmap(self.env.init)(jax.random.split(key, self.batch_size))

    def step(self, state, action):
        return jax.vmap(self.env.step)(state, action)


def rollout_pair():
    env = Env()
    w = VmapWrapper(env, 3)
    key = jax.random.key(0)
    keys = jax.random.split(key, 3)
    s_w = w.init(key)
    s_m = jax.vmap(env.init)(keys)
    assert jnp.allclose(s_w, s_m)
    action = jax.random.normal(key, (3, 2))  # expect: prng-key-reuse
    s_w2 = w.step(s_w, action)
    s_m2 = jax.vmap(env.step)(s_m, action)
    assert jnp.allclose(s_w2, s_m2)


if __name__ == "__main__":
    rollout_pair()
    print("equal")
