"""A kernel in the jaxns style, run as it is when there is no block state and compiled when there is: its NumPy
branch only runs on the eager path, so it never sees a tracer."""
import jax
import jax.numpy as jnp
import numpy as np


def sample_evidence(log_l, num_samples, block_state=None):
    if block_state is None:
        n = int(np.asarray(num_samples))
        values = np.asarray(log_l, dtype=float)[:n]
        return jnp.asarray(values.sum())
    return jnp.sum(log_l * block_state)


sample_evidence_jit = jax.jit(sample_evidence)


def evidence(log_l, num_samples, block_state=None):
    kernel = sample_evidence if block_state is None else sample_evidence_jit
    return kernel(log_l, num_samples, block_state=block_state)


if __name__ == "__main__":
    print(evidence(jnp.ones(4), 3), evidence(jnp.ones(4), 3, jnp.ones(4)))
