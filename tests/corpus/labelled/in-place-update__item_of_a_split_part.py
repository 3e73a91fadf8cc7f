"""The bug twin of clean__item_of_jnp_split_list.py: the list `jnp.split` returns holds JAX arrays, and
`cores[k][0] = ...` writes into one of them (zeroing a core's first row): TypeError, JAX arrays are immutable.
"""
import jax.numpy as jnp


def zero_first_rows(Ym):
    cores = jnp.split(Ym, Ym.shape[0])
    for k in range(len(cores)):
        cores[k][0] = 0.0  # expect: in-place-update
    return cores


if __name__ == "__main__":
    zero_first_rows(jnp.arange(12.0).reshape(3, 2, 2))
