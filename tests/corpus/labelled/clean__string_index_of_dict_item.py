"""`loc["domain_context"][_sk] = value` with `_sk = "slide_" + name` in a traced function: no array takes a string
index, so the item written is a dict's (jax-numerical-operators' contact gaps), not an in-place array update."""
import jax
import jax.numpy as jnp


@jax.jit
def pack_gaps(loc, gap):
    for name in ("left", "right"):
        _sk = "slide_" + name
        loc["domain_context"][_sk] = gap * 2.0
        loc["domain_context"][f"gap_{name}"] = gap
    return loc


print(sorted(pack_gaps({"domain_context": {}}, jnp.ones(2))["domain_context"]))
