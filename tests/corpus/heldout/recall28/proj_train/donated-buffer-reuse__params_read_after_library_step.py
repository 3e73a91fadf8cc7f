"""Project script: the library's `apply_grads` (in `trainlib.steps`) donates the parameters; the script compares
the new parameters with the old ones afterwards, reading a deleted buffer.
"""
import jax.numpy as jnp

from trainlib.steps import apply_grads


def train(params, grads):
    new_params = apply_grads(params, grads)
    moved = jnp.abs(new_params - params).max()  # expect: donated-buffer-reuse
    return new_params, moved


if __name__ == "__main__":
    print(train(jnp.ones(256), jnp.ones(256)))
