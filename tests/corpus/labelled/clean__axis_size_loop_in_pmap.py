"""Ring all-reduce under `jax.pmap`: `lax.axis_size` is a Python int, and the loop over it only
builds the permutation list that `lax.ppermute` takes.
"""
import os
from functools import partial

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=2")

import jax
import jax.numpy as jnp
from jax import lax


def ring_permutation(axis_name):
    n = lax.axis_size(axis_name)
    perm = []
    for i in range(n):
        perm.append((i, (i + 1) % n))
    return perm


@partial(jax.pmap, axis_name="devices")
def ring_sum(x):
    total = x
    for _ in range(lax.axis_size("devices") - 1):
        x = lax.ppermute(x, "devices", ring_permutation("devices"))
        total = total + x
    return total


if __name__ == "__main__":
    xs = jnp.arange(float(jax.local_device_count()))[:, None] * jnp.ones((1, 3))
    print(ring_sum(xs))
