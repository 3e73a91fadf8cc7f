"""Sharp Bits: "In-place updates", with `import jax.numpy as np` (a common port of NumPy code to JAX).

The module looks like NumPy, but `np` is jax.numpy: the eager `grid[i, j] = ...` raises TypeError.
"""
import jax.numpy as np


def make_grid(n):
    grid = np.zeros((n, n))
    for i in range(n):
        grid[i, (i + 1) % n] = 1.0  # expect: in-place-update
    return grid


def laplacian(n):
    adj = make_grid(n)
    deg = adj.sum(axis=1)
    return np.diag(deg) - adj


if __name__ == "__main__":
    print(laplacian(5))
