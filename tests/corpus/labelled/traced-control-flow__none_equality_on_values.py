"""Sharp Bits: "Control flow": the `!= None` test written on the values of an array rather than the array.

`table != None` alone is a Python bool, but `table[0] != 0` compares values: under jit a tracer, whose truth value
in the conditional expression raises TracerBoolConversionError.
"""
import jax
import jax.numpy as jnp


@jax.jit
def rotate(x, table):
    t = table if table[0] != 0 else jnp.ones(3)  # expect: traced-control-flow
    return x * t


if __name__ == "__main__":
    print(rotate(jnp.arange(3.0), jnp.full(3, 0.5)))
