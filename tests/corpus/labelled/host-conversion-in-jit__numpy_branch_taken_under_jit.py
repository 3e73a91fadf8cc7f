"""A kernel compiled with jax.jit whose `block_state is None` branch converts to NumPy: called through the
compiled wrapper without a block state, that branch runs under the trace and NumPy refuses the tracer."""
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def sample_evidence(log_l, block_state=None):
    if block_state is None:
        values = np.asarray(log_l, dtype=float)  # expect: host-conversion-in-jit
        return jnp.asarray(values.sum())
    return jnp.sum(log_l * block_state)


if __name__ == "__main__":
    try:
        sample_evidence(jnp.ones(4))
    except Exception as exc:
        print(type(exc).__name__, exc)
