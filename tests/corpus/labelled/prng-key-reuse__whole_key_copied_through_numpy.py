"""The bug twin of clean__key_word_seeds_numpy_generator.py: the environment is reset from the NumPy copy of the
whole key, `np.asarray(subkey)`, not from one word of it. A raw uint32 key array is a key: the environment's
uniform draw takes the same bits as the controller's normal draw from `subkey`, so the reset state is a function
of the plan.
"""
import jax
import numpy as np


class Controller:
    def __init__(self, key):
        self.plan = jax.random.normal(key, (4,))


class Env:
    def reset(self, key):
        return jax.random.uniform(key, (4,))


def trials(env, key, n):
    out = []
    for _ in range(n):
        key, subkey = jax.random.split(key)
        policy = Controller(subkey)
        state = env.reset(np.asarray(subkey))  # expect: prng-key-reuse
        out.append((policy.plan, state))
    return out


if __name__ == "__main__":
    (plan, state), = trials(Env(), jax.random.PRNGKey(0), 1)
    _, subkey = jax.random.split(jax.random.PRNGKey(0))
    same = jax.random.uniform(subkey, (4,))
    print("SHARP BIT: the reset state is the uniform draw of the controller's key:", bool(np.allclose(state, same)))
    assert np.allclose(state, same)
