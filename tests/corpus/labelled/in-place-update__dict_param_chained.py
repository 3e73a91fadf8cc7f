"""Sharp Bits: "In-place updates" through a dict pytree: `params["w"][0] = ...` assigns into the array
stored in the dict, which is a traced JAX array under jit: TypeError.
"""
import jax
import jax.numpy as jnp


@jax.jit
def zero_first_row(params):
    params["w"][0] = 0.0  # expect: in-place-update
    return params


if __name__ == "__main__":
    print(zero_first_row({"w": jnp.ones((2, 2)), "b": jnp.zeros(2)}))
