"""Ring communication under `jax.pmap`: `lax.axis_size` is a Python int, and the loop over it only
builds the permutation list that `lax.ppermute` takes; it adds nothing to the traced program.
"""
import os
from functools import partial

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=2")

import jax
import jax.numpy as jnp
from jax import lax


@partial(jax.pmap, axis_name="devices")
def shift_to_next_device(x):
    n = lax.axis_size("devices")
    perm = []
    for i in range(n):
        perm.append((i, (i + 1) % n))
    return lax.ppermute(x, "devices", perm)


if __name__ == "__main__":
    xs = jnp.arange(float(jax.local_device_count()))[:, None] * jnp.ones((1, 3))
    print(shift_to_next_device(xs))
