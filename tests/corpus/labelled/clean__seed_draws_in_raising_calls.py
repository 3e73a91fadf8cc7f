"""JAX PRNG docs, in a test (cryojax's ndimage tests): each `pytest.raises` block feeds a fresh draw from
`jax.random.key(0)` to a function that must reject its shape. The call raises, nothing it drew is kept, so the
repeated seed repeats no number anyone reads.
"""
import jax
import pytest


def prepare(grid):
    if grid.shape[0] % 2:
        raise ValueError("even sizes only")
    if len(set(grid.shape)) != 1:
        raise ValueError("cubic grids only")
    return grid


def test_rejects_odd_and_noncubic():
    with pytest.raises(ValueError, match="even"):
        prepare(jax.random.normal(jax.random.key(0), (7, 7, 7)))
    with pytest.raises(ValueError, match="cubic"):
        prepare(jax.random.normal(jax.random.key(0), (8, 8, 6)))


if __name__ == "__main__":
    test_rejects_odd_and_noncubic()
    print("both shapes rejected")
