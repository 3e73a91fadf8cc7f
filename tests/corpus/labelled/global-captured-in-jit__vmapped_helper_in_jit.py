"""Sharp Bits: "Pure functions": a per-example function, vmapped inside a jitted one, reads a global.
"""
import jax
import jax.numpy as jnp

margin = 1.0


def example_loss(score, label):
    return jnp.maximum(0.0, margin - label * score)  # expect: global-captured-in-jit


@jax.jit
def batch_loss(scores, labels):
    return jnp.mean(jax.vmap(example_loss)(scores, labels))


def set_margin(value):
    global margin
    margin = value


if __name__ == "__main__":
    s, y = jnp.array([0.5, -0.5]), jnp.array([1.0, -1.0])
    print(batch_loss(s, y))
    set_margin(0.0)
    print("SHARP BIT: margin 1.0 still used:", batch_loss(s, y))
