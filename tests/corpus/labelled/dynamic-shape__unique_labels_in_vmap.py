"""Counting the distinct labels of each row with `jnp.unique` under `jax.vmap`.

vmap traces the row abstractly, so the number of distinct values is unknown: ConcretizationTypeError.
"""
import jax
import jax.numpy as jnp


def distinct_labels(row):
    labels = jnp.unique(row)  # expect: dynamic-shape
    return labels.shape[0]


count_per_row = jax.vmap(distinct_labels)

if __name__ == "__main__":
    print(count_per_row(jnp.array([[1, 1, 2], [3, 4, 5]])))
