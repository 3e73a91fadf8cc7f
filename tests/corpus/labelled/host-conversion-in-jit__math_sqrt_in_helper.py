"""Sharp Bits / "Converting traced values": `math.sqrt` on an array in a helper of a jitted function.

`math` functions need a Python float; the helper runs under the caller's trace: ConcretizationTypeError.
"""
import math

import jax
import jax.numpy as jnp


def scaled_dot(q, k):
    d = jnp.sum(k * k)
    return (q @ k) / math.sqrt(d)  # expect: host-conversion-in-jit


@jax.jit
def score(q, k):
    return scaled_dot(q, k)


if __name__ == "__main__":
    print(score(jnp.ones(4), jnp.ones(4)))
