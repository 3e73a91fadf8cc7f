"""Sharp Bits: "Pure functions": the idiomatic way: a list built inside the jitted function and stacked.

The list is local to the trace, so nothing outside it changes.
"""
import jax
import jax.numpy as jnp


@jax.jit
def polynomial_features(x):
    features = []
    for power in (1, 2, 3):
        features.append(x**power)
    return jnp.stack(features, axis=-1)


if __name__ == "__main__":
    print(polynomial_features(jnp.arange(3.0)).shape)
