"""A jitted mean over the valid entries takes the mask as an argument; every caller passes a comparison of an array
(`scores > 0`), so the parameter is a traced boolean mask and `x[mask]` raises NonConcreteBooleanIndexError.
"""
import jax
import jax.numpy as jnp


@jax.jit
def masked_mean(x, mask):
    return x[mask].mean()  # expect: boolean-indexing-in-jit


scores = jnp.array([0.5, -1.0, 2.0, 0.0])

if __name__ == "__main__":
    try:
        print(masked_mean(scores, scores > 0))
    except jax.errors.NonConcreteBooleanIndexError:
        print("SHARP BIT: NonConcreteBooleanIndexError on the mask argument")
