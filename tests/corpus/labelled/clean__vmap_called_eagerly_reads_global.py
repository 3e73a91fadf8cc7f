"""Sharp Bits: "Pure functions": `jax.vmap` called outside `jit` retraces on every call.

The twin of `global-captured-in-jit__vmapped_helper_in_jit.py` without the `@jax.jit`: each call of the
batched loss runs `example_loss` again, so the margin set by `set_margin` is used.
"""
import jax
import jax.numpy as jnp

margin = 1.0


def example_loss(score, label):
    return jnp.maximum(0.0, margin - label * score)


@jax.vmap
def batched_loss(score, label):
    return example_loss(score, label)


def set_margin(value):
    global margin
    margin = value


if __name__ == "__main__":
    s, y = jnp.array([0.5, -0.5]), jnp.array([1.0, -1.0])
    before = batched_loss(s, y)
    set_margin(0.0)
    after = batched_loss(s, y)
    print("margin followed:", before, after)
    assert bool(jnp.all(before == 0.5)) and bool(jnp.all(after == 0.0))
