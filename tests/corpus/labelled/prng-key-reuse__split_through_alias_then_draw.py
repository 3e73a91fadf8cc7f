"""flaxdiff 0.2.11 flaxdiff/models/favor_fastattn.py (Performer's GaussianOrthogonalRandomMatrix): the key is split
through an alias (`rng = self.key`, then `rng, rng_input = split(rng)` per block), and the row scales are then drawn
from `self.key` itself.

Both come from the same threefry outputs: with JAX's default (partitionable) threefry, bit word i of a draw is the
XOR of the two words of `split(key)[i]`, so the scales are a function of the keys that drew the blocks. The same
code without the alias (`split(key)` and then `uniform(key)`) is reported; the alias hides it (main 063209c).
"""
import jax
import jax.numpy as jnp
import numpy as np


class OrthogonalFeatures:
    def __init__(self, key, rows=8, cols=4):
        self.key = key
        self.rows, self.cols = rows, cols

    def matrix(self):
        rng = self.key
        blocks = []
        for _ in range(self.rows // self.cols):
            rng, rng_input = jax.random.split(rng)
            q, _ = jnp.linalg.qr(jax.random.normal(rng_input, (self.cols, self.cols)))
            blocks.append(q.T)
        scale = jax.random.uniform(self.key, (self.rows,))  # expect: prng-key-reuse
        return scale[:, None] * jnp.vstack(blocks), scale


if __name__ == "__main__":
    feats = OrthogonalFeatures(jax.random.PRNGKey(0))
    _, scale = feats.matrix()
    first_block_key = jax.random.split(feats.key)[1]  # the rng_input of the first block
    words = np.asarray(jax.random.key_data(first_block_key), dtype=np.uint32)
    bits = np.array([(words[0] ^ words[1]) >> 9 | 0x3F800000], dtype=np.uint32)
    predicted = bits.view(np.float32)[0] - np.float32(1.0)
    if np.float32(scale[1]) == predicted:
        print(f"SHARP BIT: scale[1] = {float(scale[1]):.7f} is computed from the first block's key")
