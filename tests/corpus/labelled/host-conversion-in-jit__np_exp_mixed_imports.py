"""Sharp Bits / "NumPy inside jit": `np.exp` where `jnp.exp` was meant, in a jitted softmax.

`np.exp` converts its argument to a NumPy array: TracerArrayConversionError (np.sum would have worked,
it calls the array's own method; np.exp does not).
"""
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def softmax(logits):
    shifted = logits - jnp.max(logits)
    e = np.exp(shifted)  # expect: host-conversion-in-jit
    return e / np.sum(e)


if __name__ == "__main__":
    print(softmax(jnp.array([1.0, 2.0, 3.0])))
