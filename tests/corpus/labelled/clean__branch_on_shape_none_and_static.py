"""JIT docs "Static vs traced operations": branching on shapes, ranks, dtypes, `len`, `is None` and static flags.

All of these are Python values at trace time, so the branches are resolved while tracing.
"""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("causal",))
def attention(q, k, mask=None, causal=False):
    scores = q @ k.T
    if q.ndim != 2 or len(q) != k.shape[0]:
        raise ValueError("expected square 2-D inputs")
    if mask is not None:
        scores = jnp.where(mask, scores, -jnp.inf)
    if causal and scores.shape[0] > 1:
        scores = jnp.where(jnp.tril(jnp.ones(scores.shape, bool)), scores, -jnp.inf)
    if scores.dtype == jnp.float16:
        scores = scores.astype(jnp.float32)
    return jax.nn.softmax(scores, axis=-1)


if __name__ == "__main__":
    x = jnp.ones((3, 3))
    print(attention(x, x, causal=True))
    print(attention(x, x, mask=jnp.eye(3, dtype=bool)))
