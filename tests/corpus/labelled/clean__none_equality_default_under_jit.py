"""Sharp Bits: "Control flow": `table if table != None else default` on an optional array under jit.

`Array.__ne__` returns NotImplemented for `None`, so Python falls back to identity and `table != None` is a
plain bool, also on a tracer: the conditional expression is resolved at trace time, with and without the array
(as s2fft's `rotate_flms` does with its optional Wigner table).
"""
import jax
import jax.numpy as jnp


@jax.jit
def rotate(x, table=None):
    t = table if table != None else jnp.ones(3)
    if table == None:
        t = t * 2.0
    return x * t


if __name__ == "__main__":
    print(rotate(jnp.arange(3.0)), rotate(jnp.arange(3.0), jnp.full(3, 0.5)))
