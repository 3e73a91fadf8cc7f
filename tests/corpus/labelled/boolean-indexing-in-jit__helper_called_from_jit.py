"""Sharp Bits / "Dynamic shapes": a boolean-indexing helper that a jitted function calls.

`masked_mean` works eagerly, and fails once `normalize` (jitted) calls it.
"""
import jax
import jax.numpy as jnp


def masked_mean(x, mask):
    return x[mask].mean()  # expect: boolean-indexing-in-jit


@jax.jit
def normalize(x):
    finite = jnp.isfinite(x)
    mu = masked_mean(x, finite)
    return jnp.where(finite, x - mu, 0.0)


if __name__ == "__main__":
    print(masked_mean(jnp.array([1.0, jnp.nan, 3.0]), jnp.array([True, False, True])))
    print(normalize(jnp.array([1.0, jnp.inf, 3.0])))
