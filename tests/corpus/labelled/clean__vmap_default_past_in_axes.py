"""`jax.vmap(value, in_axes=(0, None))` takes exactly two positional arguments (a third raises ValueError), so
`clip` past them keeps its default None: `if clip:` is a Python test of None (round 38: a mesh-free PDE
solver's vectorised operators).
"""
import jax
import jax.numpy as jnp


def value(x, field, clip=None):
    out = jnp.sum(field * x)
    if clip:
        return jnp.clip(out, -clip, clip)
    return out


value_vec = jax.jit(jax.vmap(value, in_axes=(0, None)))

if __name__ == "__main__":
    print(value_vec(jnp.ones((4, 3)), jnp.arange(3.0)))
