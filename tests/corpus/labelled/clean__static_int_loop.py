"""JIT docs "Marking arguments as static": a loop over a small static count of heads/layers.

`num_heads` is a static Python int; unrolling a handful of heads is intended.
"""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames="num_heads")
def split_heads_and_attend(q, k, v, num_heads):
    d = q.shape[-1] // num_heads
    outputs = []
    for h in range(num_heads):
        sl = slice(h * d, (h + 1) * d)
        scores = q[:, sl] @ k[:, sl].T / jnp.sqrt(d)
        outputs.append(jax.nn.softmax(scores, axis=-1) @ v[:, sl])
    return jnp.concatenate(outputs, axis=-1)


if __name__ == "__main__":
    x = jnp.ones((5, 8))
    print(split_heads_and_attend(x, x, x, num_heads=2).shape)
