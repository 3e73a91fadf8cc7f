"""Sharp Bits / "Random numbers": a sampler that keeps its key on `self.rng` and splits it at every step of its
decode loop before handing the subkey to `self._step`, a jitted bound method stored in `__init__`.
Nothing here is a sharp bit.
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
            self.rng, sub = jax.random.split(self.rng)
            draws.append(int(self._step(0, sub)))
        return draws


if __name__ == "__main__":
    print(Decoder().decode(0))
