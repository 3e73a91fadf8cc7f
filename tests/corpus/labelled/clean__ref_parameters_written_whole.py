"""Mutable references passed into jitted code and written whole (`ref[...] += v`), as flax's `nnx.Variable`
and `jax.new_ref` are meant to be used: the jitted function and the helper it calls update them in place.
"""
import jax
import jax.numpy as jnp


def bump(counter):
    counter[...] += 1


@jax.jit
def accumulate(total, counter, batch):
    total[...] += batch.sum(axis=0)
    bump(counter)
    return total[...] / counter[...]


if __name__ == "__main__":
    total, counter = jax.new_ref(jnp.zeros(3)), jax.new_ref(jnp.zeros(()))
    for i in range(3):
        mean = accumulate(total, counter, jnp.full((2, 3), float(i)))
    print("running mean:", mean, "after", counter[...], "batches")
