"""Twin: the environment splits its key on every `reset()`; a second class keeps a key on `self` but its one
drawing method runs once per object (a new object per seed), which draws different numbers each time."""
import jax


class Env:
    def __init__(self, seed: int):
        self.key = jax.random.PRNGKey(seed)

    def reset(self) -> jax.Array:
        self.key, sub = jax.random.split(self.key)
        return jax.random.uniform(sub, (2,), minval=-1.0, maxval=1.0)


class Init:
    def __init__(self, seed: int):
        self.key = jax.random.PRNGKey(seed)

    def weights(self) -> jax.Array:
        return jax.random.normal(self.key, (3,))


def run_episodes(env: Env, n: int) -> list:
    return [env.reset() for _ in range(n)]


if __name__ == "__main__":
    print(run_episodes(Env(0), 4))
    print([Init(seed).weights() for seed in range(3)])
