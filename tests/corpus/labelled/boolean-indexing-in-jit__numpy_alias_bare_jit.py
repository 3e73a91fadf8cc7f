"""Sharp Bits: boolean masks under bare `@jit` with `import jax.numpy as np` (a NumPy port).

Looks like NumPy, but `np` is jax.numpy and `x` is a tracer: NonConcreteBooleanIndexError.
"""
import jax.numpy as np
from jax import jit


@jit
def robust_std(x):
    x = x[np.isfinite(x)]  # expect: boolean-indexing-in-jit
    return np.std(x)


if __name__ == "__main__":
    print(robust_std(np.array([1.0, np.nan, 2.0, 4.0])))
