"""The bug twin of clean__callee_only_keeps_key.py: the tracker stores the key on `self` and its `sample`
method draws from it, so the draw in `evaluate` and the tracker's draws come from the same key.
"""
import jax
import jax.numpy as jnp


class Sampler:
    def __init__(self, key, name):
        self.key = key
        self.name = name

    def sample(self):
        return jax.random.normal(self.key, (3,))


def evaluate(key, name):
    sampler = Sampler(key, name)
    noise = jax.random.normal(key, (3,))  # expect: prng-key-reuse
    return sampler.sample(), noise  # expect: prng-key-reuse


if __name__ == "__main__":
    a, b = evaluate(jax.random.PRNGKey(0), "run")
    print("SHARP BIT: the sampler repeats the noise:", bool(jnp.all(a == b)))
