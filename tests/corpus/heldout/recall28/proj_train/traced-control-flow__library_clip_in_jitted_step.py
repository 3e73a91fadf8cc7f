"""Project script: a jitted step calls the library's `clip_by_norm` (in `trainlib.steps`), whose Python `if` on
the gradient norm then branches on a tracer and raises TracerBoolConversionError.
"""
import jax
import jax.numpy as jnp

from trainlib.steps import clip_by_norm


@jax.jit
def step(params, grads):
    return params - 0.1 * clip_by_norm(grads, 1.0)


if __name__ == "__main__":
    print(step(jnp.ones(4), jnp.full(4, 3.0)))
