"""host-conversion-in-jit: NumPy and `float()` need values, which do not exist while `jit` traces."""
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def log_softmax(logits):
    shifted = logits - logits.max()
    return shifted - np.log(np.exp(shifted).sum())


@jax.jit
def log_softmax_jnp(logits):
    shifted = logits - logits.max()
    return shifted - jnp.log(jnp.exp(shifted).sum())


def largest_log_prob(logits):
    # after the jitted call the result is a concrete array: NumPy and float() work
    out = log_softmax_jnp(logits)
    return float(np.asarray(out).max())
