"""The bug twin: `loc["domain_context"][0] = value` writes into the array the dict holds, which raises
TypeError under jit (JAX arrays are immutable)."""
import jax
import jax.numpy as jnp


@jax.jit
def pack_gaps(loc, gap):
    loc["domain_context"][0] = gap  # expect: in-place-update
    return loc


print(pack_gaps({"domain_context": jnp.zeros(2)}, 1.0))
