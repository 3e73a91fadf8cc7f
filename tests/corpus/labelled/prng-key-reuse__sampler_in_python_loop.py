"""Sharp Bits: "Random numbers", the classic loop bug: the key is never re-derived inside the loop.

Every epoch gets the very same shuffle.
"""
import jax
import numpy as np

key = jax.random.PRNGKey(42)
data = np.arange(10)

orders = []
for epoch in range(3):
    perm = jax.random.permutation(key, data.shape[0])  # expect: prng-key-reuse
    orders.append(np.asarray(perm))
    print("epoch", epoch, data[np.asarray(perm)][:5])

print("SHARP BIT: identical shuffles:", all((o == orders[0]).all() for o in orders))
