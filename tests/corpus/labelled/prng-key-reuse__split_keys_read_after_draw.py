"""Twin of clean__split_keys_never_read: the keys split from `key` after `x_batch` was drawn from it are read
(each row of `y_batch` is drawn from one of them).

With JAX's default (partitionable) threefry, bit word i of a draw from `key` is the XOR of the two words of
`split(key, n)[i]`, so `x_batch` is a function of the very keys that draw `y_batch` (checked below: element 1 of
the first draw is computed from `keys[1]`).
"""
import jax
import numpy as np


def batch(n_tests=4, n_samples=8):
    key = jax.random.PRNGKey(42)
    x_batch = jax.random.uniform(key, (n_tests * n_samples,))
    keys = jax.random.split(key, n_tests)  # expect: prng-key-reuse
    y_batch = jax.vmap(lambda k: jax.random.uniform(k, (n_samples,)))(keys)
    return x_batch, keys, y_batch


if __name__ == "__main__":
    x, keys, y = batch()
    words = np.asarray(jax.random.key_data(keys[1]), dtype=np.uint32)
    bits = np.array([(words[0] ^ words[1]) >> 9 | 0x3F800000], dtype=np.uint32)
    predicted = bits.view(np.float32)[0] - np.float32(1.0)
    if np.float32(x[1]) == predicted:
        print(f"SHARP BIT: x_batch[1] = {float(x[1]):.7f} is computed from keys[1], which draws y_batch[1]")
