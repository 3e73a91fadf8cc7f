"""jax-pcmci 1.4.0 tests/test_independence_tests.py (test_batch_computation): `X_batch` is drawn from `key`, and
then `keys = split(key, n_tests)` is bound and never read (`Y_batch` is drawn from another seed).

`jax.random` is pure: a split whose keys nothing reads gives no number to anything, so no draw repeats. The
twin, prng-key-reuse__split_keys_read_after_draw, reads them.
"""
import jax
import numpy as np


def batch(n_tests=4, n_samples=8):
    key = jax.random.PRNGKey(42)
    x_batch = jax.random.uniform(key, (n_tests, n_samples))
    keys = jax.random.split(key, n_tests)
    y_batch = jax.random.uniform(jax.random.PRNGKey(123), (n_tests, n_samples))
    return x_batch, y_batch


if __name__ == "__main__":
    x, y = batch()
    corr = np.corrcoef(np.asarray(x).ravel(), np.asarray(y).ravel())[0, 1]
    assert abs(corr) < 0.6, corr
    if np.any(np.isin(np.asarray(x), np.asarray(y))):
        print("SHARP BIT: the two batches share values")
