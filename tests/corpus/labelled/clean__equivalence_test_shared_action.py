"""An equivalence test stepping two implementations with one action (jax-envelope's wrapper tests): the action is
drawn from the key the states came from, but it reaches both sides of every comparison it reaches, so whatever
it shares with the states' numbers cannot change whether the wrapper and the manual `vmap` agree."""
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


def test_step_matches_manual_vmap():
    env = Env()
    w = VmapWrapper(env, 3)
    key = jax.random.key(0)
    keys = jax.random.split(key, 3)
    s_w = w.init(key)
    s_m = jax.vmap(env.init)(keys)
    assert jnp.allclose(s_w, s_m)
    action = jax.random.normal(key, (3, 2))
    s_w2 = w.step(s_w, action)
    s_m2 = jax.vmap(env.step)(s_m, action)
    assert jnp.allclose(s_w2, s_m2)


if __name__ == "__main__":
    test_step_matches_manual_vmap()
    print("equal")
