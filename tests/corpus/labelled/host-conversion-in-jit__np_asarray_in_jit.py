"""Sharp Bits / "NumPy inside jit": `np.asarray` on a traced argument to use a NumPy routine.

NumPy asks the tracer for its values: TracerArrayConversionError.
"""
import jax
import numpy as np


@jax.jit
def sorted_median(x):
    values = np.asarray(x)  # expect: host-conversion-in-jit
    return np.median(values)


if __name__ == "__main__":
    print(sorted_median(jax.numpy.arange(5.0)))
