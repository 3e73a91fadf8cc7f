"""LLM sampling: a sampler keeps its key on `self.rng` and passes it unchanged to every decode step.

`self._sample(logits, self.rng)` draws the same uniform bits on every call, so a constant
distribution gives the same token at every position.
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
            tokens.append(int(self._sample(logits, self.rng)))  # expect: prng-key-reuse
        return tokens


if __name__ == "__main__":
    tokens = Sampler(0).generate([jnp.zeros(50)] * 8)
    if len(set(tokens)) == 1:
        print("SHARP BIT: 8 draws from a uniform distribution over 50 tokens, all equal:", tokens)
