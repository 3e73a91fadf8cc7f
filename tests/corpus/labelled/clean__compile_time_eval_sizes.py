"""Sizes computed under `jax.ensure_compile_time_eval()` and a module-level array used directly as a slice bound:
both are concrete inside `jit` (checked on jax 0.10.2: it runs).
"""
import jax
import jax.numpy as jnp
import numpy as np

KEEP = jnp.array([True, False, True, True])
HEAD = jnp.array(2)


@jax.jit
def select(x):
    with jax.ensure_compile_time_eval():
        n = jnp.sum(KEEP)
        pad = jnp.zeros((n,))
        (idx,) = jnp.nonzero(KEEP)
    host_idx = np.nonzero(np.array([1, 0, 1, 0]))[0]
    return x[:HEAD], x[idx], pad, x[host_idx]


if __name__ == "__main__":
    print(select(jnp.arange(4.0)))
