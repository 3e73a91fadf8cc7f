"""Sharp Bits / "Dynamic shapes": the per-token loss of `optax.softmax_cross_entropy_with_integer_labels`,
averaged over the non-padding tokens by boolean indexing inside a jitted function.

optax's losses are jax.numpy computations: their result is a traced array under `jit`, and `per_tok[valid]`
with a traced mask has a value-dependent shape (NonConcreteBooleanIndexError).
"""
import jax
import jax.numpy as jnp
import optax


@jax.jit
def masked_xent(logits, labels, pad_id=0):
    per_tok = optax.softmax_cross_entropy_with_integer_labels(logits, labels)
    valid = labels != pad_id
    return per_tok[valid].mean()  # expect: boolean-indexing-in-jit


if __name__ == "__main__":
    print(masked_xent(jnp.zeros((2, 5, 7)), jnp.array([[1, 2, 0, 0, 0], [3, 3, 3, 0, 0]])))
