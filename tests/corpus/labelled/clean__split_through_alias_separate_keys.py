"""The fix of `prng-key-reuse__split_through_alias_then_draw`: the key is split once into a key for the blocks and
a key for the scales, and the blocks' key is then split through an alias, one subkey per block.
"""
import jax
import jax.numpy as jnp


class OrthogonalFeatures:
    def __init__(self, key, rows=8, cols=4):
        self.key = key
        self.rows, self.cols = rows, cols

    def matrix(self):
        blocks_key, scale_key = jax.random.split(self.key)
        rng = blocks_key
        blocks = []
        for _ in range(self.rows // self.cols):
            rng, rng_input = jax.random.split(rng)
            q, _ = jnp.linalg.qr(jax.random.normal(rng_input, (self.cols, self.cols)))
            blocks.append(q.T)
        scale = jax.random.uniform(scale_key, (self.rows,))
        return scale[:, None] * jnp.vstack(blocks), scale


if __name__ == "__main__":
    m, scale = OrthogonalFeatures(jax.random.PRNGKey(0)).matrix()
    assert m.shape == (8, 4) and scale.shape == (8,)
    print(f"scale[1] = {float(scale[1]):.7f}")
