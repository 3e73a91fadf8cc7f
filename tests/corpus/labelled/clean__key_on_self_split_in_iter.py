"""Clean twin of prng-key-reuse__key_on_self_drawn_in_iter: `__iter__` splits `self.key` and stores the new key
before it shuffles, so each epoch has its own order.
"""
import jax
import jax.numpy as jnp


class Minibatches:
    def __init__(self, data, size, key):
        self.data = data
        self.size = size
        self.key = key

    def __iter__(self):
        self.key, sub = jax.random.split(self.key)
        order = jax.random.permutation(sub, len(self.data))
        for start in range(0, len(self.data), self.size):
            yield self.data[order[start:start + self.size]]


if __name__ == "__main__":
    batches = Minibatches(jnp.arange(8.0), 4, jax.random.key(0))
    for epoch in range(3):
        print([b.tolist() for b in batches])
