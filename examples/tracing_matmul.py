"""The roofline of two functions: a large matmul (compute-bound) and a scaling (memory-bound).

    sharpbits trace examples/tracing_matmul.py::matmul
    sharpbits trace examples/tracing_matmul.py::scale
"""

import jax
import jax.numpy as jnp


# sharpbits: trace(a=f32[1024,1024], b=f32[1024,1024])
@jax.jit
def matmul(a, b):
    # 2·1024³ flop over 12 MiB read and written: about 170 flop per byte
    return jnp.dot(a, b)


# sharpbits: trace(x=f32[1024,1024])
@jax.jit
def scale(x):
    # one flop per 8 bytes
    return 2.0 * x
