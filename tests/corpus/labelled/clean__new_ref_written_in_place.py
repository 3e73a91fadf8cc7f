"""JAX mutable references (`jax.new_ref`): a `Ref` is meant to be written in place, also under jit.

A running-statistics buffer is accumulated with `ref[...] = ...` and `ref[...] += ...` inside jitted
functions; JAX threads the effect through the program, nothing is lost or stale.
"""
import jax
import jax.numpy as jnp


def make_stats(dim):
    return {"count": jax.new_ref(jnp.zeros(())), "total": jax.new_ref(jnp.zeros(dim))}


@jax.jit
def observe(stats, batch):
    stats["count"][...] += batch.shape[0]
    stats["total"][...] = stats["total"][...] + batch.sum(axis=0)


@jax.jit
def mean_of(stats):
    return stats["total"][...] / stats["count"][...]


if __name__ == "__main__":
    stats = make_stats(3)
    for i in range(3):
        observe(stats, jnp.full((4, 3), float(i)))
    print("mean:", mean_of(stats))
