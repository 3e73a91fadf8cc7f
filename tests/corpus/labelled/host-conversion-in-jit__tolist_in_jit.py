"""Sharp Bits / "Converting traced values": `.tolist()` to build Python-side labels inside jit.

A tracer cannot become a list: TracerArrayConversionError (`ConcretizationTypeError` in some versions).
"""
import jax
import jax.numpy as jnp


@jax.jit
def decode(token_ids):
    ids = token_ids.tolist()  # expect: host-conversion-in-jit
    return jnp.array([i + 1 for i in ids])


if __name__ == "__main__":
    print(decode(jnp.arange(3)))
