"""Clean twin of prng-key-reuse__key_on_self_handed_to_sampler: `act` splits `self.key`, keeps one half and hands
the other to the sampler.
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
        self.key, sub = jax.random.split(self.key)
        return int(sample_action(sub, self.logits))


if __name__ == "__main__":
    policy = Policy(10)
    print([policy.act() for _ in range(20)])
