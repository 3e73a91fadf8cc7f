"""An environment keeps the key it was built with on `self.key` and draws each episode's start from it; nothing
ever stores another key, so every `reset()` of one environment starts from the same state.
"""
import jax
import jax.numpy as jnp


class Env:
    def __init__(self, seed: int):
        self.key = jax.random.PRNGKey(seed)

    def reset(self) -> jax.Array:
        return jax.random.uniform(self.key, (2,), minval=-1.0, maxval=1.0)  # expect: prng-key-reuse


def run_episodes(env: Env, n: int) -> list:
    starts = []
    for _ in range(n):
        starts.append(env.reset())
    return starts


if __name__ == "__main__":
    starts = run_episodes(Env(0), 4)
    if all(bool(jnp.array_equal(s, starts[0])) for s in starts):
        print("SHARP BIT: 4 episodes, one start state:", starts[0])
