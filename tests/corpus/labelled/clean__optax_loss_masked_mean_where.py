"""Sharp Bits / "Dynamic shapes": the per-token loss of `optax.softmax_cross_entropy_with_integer_labels`,
averaged over the non-padding tokens with `jnp.where` inside a jitted function, and by boolean indexing of the
concrete result outside it. Nothing here is a sharp bit.
"""
import jax
import jax.numpy as jnp
import optax


@jax.jit
def masked_xent(logits, labels, pad_id=0):
    per_tok = optax.softmax_cross_entropy_with_integer_labels(logits, labels)
    valid = labels != pad_id
    return jnp.sum(jnp.where(valid, per_tok, 0.0)) / jnp.maximum(valid.sum(), 1)


if __name__ == "__main__":
    logits, labels = jnp.zeros((2, 5, 7)), jnp.array([[1, 2, 0, 0, 0], [3, 3, 3, 0, 0]])
    per_tok = optax.softmax_cross_entropy_with_integer_labels(logits, labels)
    print(masked_xent(logits, labels), per_tok[labels != 0].mean())
