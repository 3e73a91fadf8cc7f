"""Sharp Bits: "Pure functions": recording which shapes a function was traced for (a static value) is a
deliberate trace-time effect, and the module state it touches holds only Python values.
"""
import jax
import jax.numpy as jnp

traced_shapes = []
compile_count = 0


@jax.jit
def normalize(x):
    global compile_count
    compile_count += 1
    traced_shapes.append(x.shape)
    return (x - x.mean()) / (x.std() + 1e-6)


if __name__ == "__main__":
    normalize(jnp.arange(4.0))
    normalize(jnp.arange(4.0) + 1)
    normalize(jnp.arange(6.0))
    assert traced_shapes == [(4,), (6,)], traced_shapes
