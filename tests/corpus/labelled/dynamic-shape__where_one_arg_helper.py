"""A helper of a jitted loss that finds the misclassified examples with one-argument `jnp.where`.

The helper runs under the caller's trace; `jnp.where(cond)` is `jnp.nonzero(cond)`: ConcretizationTypeError.
"""
import jax
import jax.numpy as jnp


def misclassified(logits, labels):
    wrong = jnp.argmax(logits, axis=-1) != labels
    return jnp.where(wrong)[0]  # expect: dynamic-shape


@jax.jit
def error_report(logits, labels):
    idx = misclassified(logits, labels)
    return idx


if __name__ == "__main__":
    logits = jnp.array([[0.1, 0.9], [0.8, 0.2], [0.3, 0.7]])
    print(error_report(logits, jnp.array([1, 1, 0])))
