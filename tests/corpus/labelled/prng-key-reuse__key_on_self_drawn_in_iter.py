"""A minibatch iterator shuffles in `__iter__` with the key it keeps on `self.key`, set once in `__init__`: every
`for batch in batches` (one per epoch) visits the data in the same order (held-out set recall24).
"""
import jax
import jax.numpy as jnp


class Minibatches:
    def __init__(self, data, size, key):
        self.data = data
        self.size = size
        self.key = key

    def __iter__(self):
        order = jax.random.permutation(self.key, len(self.data))  # expect: prng-key-reuse
        for start in range(0, len(self.data), self.size):
            yield self.data[order[start:start + self.size]]


if __name__ == "__main__":
    batches = Minibatches(jnp.arange(8.0), 4, jax.random.key(0))
    orders = []
    for epoch in range(3):
        orders.append([b.tolist() for b in batches])
    if orders[0] == orders[1] == orders[2]:
        print("SHARP BIT: three epochs, one order:", orders[0])
