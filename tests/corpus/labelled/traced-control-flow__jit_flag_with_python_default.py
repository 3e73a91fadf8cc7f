"""dynamax `hmm_smoother` / fjformer `flash_attention2` (rounds 1 and 11): a flag of a jitted function with a Python
default (`compute_trans_probs: bool = True`, `dropout: float = 0.0`) that is not a static argument.

A default is not static: left out, the flag is the Python value; passed, jit traces it like any argument, and
`if compute_extra:` raises TracerBoolConversionError.
"""
import jax
import jax.numpy as jnp


@jax.jit
def smooth(x, compute_extra: bool = True):
    y = jnp.cumsum(x) / jnp.arange(1, x.shape[0] + 1)
    if compute_extra:  # expect: traced-control-flow
        y = y - y.mean()
    return y


if __name__ == "__main__":
    print(smooth(jnp.arange(4.0)))
    print(smooth(jnp.arange(4.0), compute_extra=False))
