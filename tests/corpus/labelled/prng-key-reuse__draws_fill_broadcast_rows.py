"""A batch sampler fills a (rows, dim) result piecewise with draws of shape (dim,) from one key.

The masks exclude each other (`group == 0` and `group != 0`), but each draw is broadcast over the rows its mask
keeps, so row 0 (normal draws) and the last row (uniform draws) are made from the same bits at each column: the
normal and uniform values of one key correlate at about 0.98. Compare `clean__draws_fill_disjoint_masks.py`,
whose draws have the filled result's shape.
"""
import jax
import jax.numpy as jnp
import numpy as np
from jax import random


def sample_batch(key, group, dim):
    res = jnp.empty((group.shape[0], dim))
    first = group == 0
    res = jnp.where(first, random.normal(key, (dim,)), res)
    rest = group != 0
    res = jnp.where(rest, random.uniform(key, (dim,)), res)  # expect: prng-key-reuse
    return res


if __name__ == "__main__":
    group = jnp.array([[0], [0], [1], [1]])
    keys = random.split(random.PRNGKey(0), 5000)
    batches = np.asarray(jax.vmap(lambda k: sample_batch(k, group, 3))(keys))
    corr = np.corrcoef(batches[:, 0, 0], batches[:, -1, 0])[0, 1]
    if corr > 0.5:
        print(f"SHARP BIT: row 0 and the last row correlate at {corr:.3f} (same bits)")
