"""`jnp` is NumPy only in the `except ImportError` fallback of a `try` that imports `jax.numpy` (round 36's
homodyne, where `jit` is then a no-op too): with JAX installed, which traced code needs, `jnp` is `jax.numpy`, and
`jnp.asarray` / `jnp.atleast_1d` on tracers are fine.
"""
try:
    import jax
    import jax.numpy as jnp
    from jax import jit
except ImportError:
    import numpy as jnp

    def jit(f):
        return f


@jit
def spread(t, phi):
    t = jnp.atleast_1d(t)
    a = jnp.deg2rad(jnp.asarray(phi))
    return jnp.clip(t + a, -1.0, 1.0).sum()


if __name__ == "__main__":
    print("traced with jax.numpy:", spread(0.5, 30.0), jax.__name__)
