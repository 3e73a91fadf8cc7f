"""LLM sampling: the sampler splits `self.rng` before every decode step and keeps the new key.

Each step gets a fresh subkey, so the tokens drawn from a constant distribution vary.
"""
import jax
import jax.numpy as jnp


class Sampler:
    def __init__(self, seed, temperature=1.0):
        self.rng = jax.random.PRNGKey(seed)
        self.temperature = temperature

    def _sample(self, logits, rng):
        return jax.random.categorical(rng, logits / self.temperature)

    def generate(self, logits_per_step):
        tokens = []
        for logits in logits_per_step:
            self.rng, step_rng = jax.random.split(self.rng)
            tokens.append(int(self._sample(logits, step_rng)))
        return tokens


if __name__ == "__main__":
    print(Sampler(0).generate([jnp.zeros(50)] * 8))
