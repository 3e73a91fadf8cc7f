"""A layer over 8 devices: the batch split over the mesh's `data` axis, the weights over `model`.

Needs 8 devices. On a CPU, XLA makes them (in the editor, set `sharpbits.trace.launchPrefix` to
`env XLA_FLAGS=--xla_force_host_platform_device_count=8`):

    XLA_FLAGS=--xla_force_host_platform_device_count=8 sharpbits trace examples/tracing_sharding.py::layer --show sharding
"""

import jax
import jax.numpy as jnp
from jax.sharding import AxisType, NamedSharding
from jax.sharding import PartitionSpec as P

# Auto axes: XLA places the intermediates and inserts the collectives (jax.make_mesh defaults to Explicit axes)
mesh = jax.make_mesh((4, 2), ("data", "model"), axis_types=(AxisType.Auto, AxisType.Auto))
batch_rows = NamedSharding(mesh, P("data", None))
weight_columns = NamedSharding(mesh, P(None, "model"))


# sharpbits: trace(x=f32[64,32] @ batch_rows, w=f32[32,16] @ weight_columns)
@jax.jit
def layer(x, w):
    # each device computes its block of rows x columns; whole rows are then gathered over `model`
    h = jnp.tanh(x @ w)
    h = jax.lax.with_sharding_constraint(h, batch_rows)
    # the sum over the batch is reduced over `data`
    return jnp.mean(h**2, axis=1).sum()
