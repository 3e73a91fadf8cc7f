"""Online planning trials (pyRDDLGym-jax's tuner): each trial splits off `subkey`, hands it to the controller,
which draws its plan from it, and seeds the environment's own NumPy generator with the key's first word,
`np.array(subkey)[0]`. That word is an integer on the host: NumPy's generator shares no bits with JAX's
threefry draws from `subkey`, so the key is used once.
"""
import jax
import numpy as np


class Controller:
    def __init__(self, key):
        self.plan = jax.random.normal(key, (4,))


class Env:
    def reset(self, seed):
        self.rng = np.random.default_rng(seed)
        return self.rng.normal(size=4)


def trials(env, key, n):
    out = []
    for _ in range(n):
        key, subkey = jax.random.split(key)
        policy = Controller(subkey)
        state = env.reset(seed=np.array(subkey)[0])
        out.append((policy.plan, state))
    return out


if __name__ == "__main__":
    (plan, state), = trials(Env(), jax.random.PRNGKey(0), 1)
    print("plan", np.round(np.asarray(plan), 3), "state", np.round(state, 3))
    assert not np.allclose(np.asarray(plan), state)
