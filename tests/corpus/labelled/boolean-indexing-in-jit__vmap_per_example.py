"""Sharp Bits / "Dynamic shapes": boolean indexing in a per-example function mapped with `jax.vmap`.
"""
import jax
import jax.numpy as jnp


def masked_token_loss(logits, labels):
    valid = labels != -100
    picked = jnp.take_along_axis(logits, labels[:, None].clip(0), axis=-1)[:, 0]
    return -picked[valid].mean()  # expect: boolean-indexing-in-jit


batched_loss = jax.vmap(masked_token_loss)


if __name__ == "__main__":
    logits = jnp.zeros((2, 5, 7))
    labels = jnp.array([[1, 2, -100, -100, 3], [4, -100, 5, 6, 0]])
    print(batched_loss(logits, labels))
