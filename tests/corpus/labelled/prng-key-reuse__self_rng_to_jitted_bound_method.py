"""Sharp Bits / "Random numbers": a sampler that keeps its key on `self.rng` and hands it unchanged, in a decode
loop, to `self._step`, a jitted bound method stored in `__init__` (`self._step = jax.jit(self._sample)`).

`self._step(...)` runs `_sample`, which draws from the key it is given: the same key at every step gives the
same draw at every step.
"""
import jax
import jax.numpy as jnp


class Decoder:
    def __init__(self, seed=0, vocab=7):
        self.rng = jax.random.PRNGKey(seed)
        self.table = jnp.linspace(-1.0, 1.0, vocab * vocab).reshape(vocab, vocab)
        self._step = jax.jit(self._sample)

    def _sample(self, token, key):
        return jax.random.categorical(key, self.table[token] * 0.1)

    def decode(self, token, length=12):
        draws = []
        for _ in range(length):
            draws.append(int(self._step(0, self.rng)))  # expect: prng-key-reuse
        return draws


if __name__ == "__main__":
    draws = Decoder().decode(0)
    if len(set(draws)) == 1:
        print("SHARP BIT: every step drew the same token:", draws)
