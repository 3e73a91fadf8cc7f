"""`jax.shard_map` called eagerly (no `jit` around it): the per-shard body runs with each device's concrete
block, so `print` shows every shard's mean on every call.
"""
import contextlib
import io

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()[:1]), ("data",))


def local_stats(x):
    m = jnp.mean(x)
    print("shard mean", m)
    return x - m


normalise = jax.shard_map(local_stats, mesh=mesh, in_specs=P("data"), out_specs=P("data"))

if __name__ == "__main__":
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        normalise(jnp.arange(8.0))
    if "Tracer" in buf.getvalue():
        print("SHARP BIT:", buf.getvalue().strip())
    print(buf.getvalue().strip())
