"""Sharp Bits: "In-place updates": swapping two entries with a tuple assignment, NumPy style, under jit.

Both subscript targets are item assignments on a traced array: TypeError.
"""
import jax
import jax.numpy as jnp


@jax.jit
def swap_first_two(perm):
    perm = perm + 0
    perm[0], perm[1] = perm[1], perm[0]  # expect: in-place-update
    return perm


if __name__ == "__main__":
    print(swap_first_two(jnp.arange(4)))
