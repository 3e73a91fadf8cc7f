"""A policy keeps its key on `self.key`, set once in `__init__`, and hands it unchanged to a module-level sampling
function on every `act` call: the helper draws from it, so every action is the same (held-out set recall24: a text
generator's `sample_top_k(self.rng, logits)`).
"""
import jax
import jax.numpy as jnp


def sample_action(key, logits, temperature=1.0):
    return jax.random.categorical(key, logits / temperature)


class Policy:
    def __init__(self, n_actions: int, seed: int = 0):
        self.key = jax.random.key(seed)
        self.logits = jnp.zeros(n_actions)

    def act(self) -> int:
        return int(sample_action(self.key, self.logits))  # expect: prng-key-reuse


if __name__ == "__main__":
    policy = Policy(10)
    actions = [policy.act() for _ in range(20)]
    if len(set(actions)) == 1:
        print("SHARP BIT: 20 actions from a uniform policy, one value:", actions[0])
