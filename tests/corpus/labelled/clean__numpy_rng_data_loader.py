"""Data loading with NumPy's own RNG: stateful generators are not JAX keys, reusing `rng` is correct.
"""
import numpy as np


class Loader:
    def __init__(self, x, y, batch_size, seed=0):
        self.x, self.y = x, y
        self.batch_size = batch_size
        self.rng = np.random.default_rng(seed)

    def epoch(self):
        order = self.rng.permutation(len(self.x))
        for start in range(0, len(order), self.batch_size):
            idx = order[start:start + self.batch_size]
            xb = self.x[idx].copy()
            xb += self.rng.normal(scale=0.01, size=xb.shape)
            xb[:, 0] = 1.0
            yield xb, self.y[idx]


if __name__ == "__main__":
    rng = np.random.default_rng(1)
    x = rng.normal(size=(10, 3))
    y = rng.integers(0, 2, size=10)
    for xb, yb in Loader(x, y, 4).epoch():
        print(xb.shape, yb)
