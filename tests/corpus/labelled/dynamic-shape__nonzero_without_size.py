"""Sharp Bits / "Dynamic shapes": `jnp.nonzero(mask)` inside `@jax.jit` with no `size=`.

How many indices come back depends on the values: ConcretizationTypeError. Give `size=` and `fill_value=`.
"""
import jax
import jax.numpy as jnp


@jax.jit
def active_indices(scores, threshold):
    (idx,) = jnp.nonzero(scores > threshold)  # expect: dynamic-shape
    return idx


if __name__ == "__main__":
    print(active_indices(jnp.array([0.1, 0.9, 0.3, 0.8]), 0.5))
