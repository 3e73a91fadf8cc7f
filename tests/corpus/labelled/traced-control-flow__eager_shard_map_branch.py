"""A `shard_map` body checks its shard for negative values with a Python `if` before taking the log.

The body is traced: `if jnp.any(x < 0)` raises TracerBoolConversionError.
"""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()[:1]), ("data",))


def log_shard(x):
    if jnp.any(x < 0):  # expect: traced-control-flow
        x = jnp.abs(x)
    return jnp.log1p(x)


log_all = jax.shard_map(log_shard, mesh=mesh, in_specs=P("data"), out_specs=P("data"))


if __name__ == "__main__":
    print(log_all(jnp.array([1.0, -2.0, 3.0, 4.0])))
