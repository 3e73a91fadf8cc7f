"""A unit test with signal and noise from split keys, and a deliberate reproduction of the signal's draw.

The noise has its own key; the last assertion draws from `data_key` again on purpose and compares
that draw with `clean` (a test of reproducibility, not a reuse).
"""
import jax
import numpy as np


def denoise(x):
    return jax.numpy.round(x * 4.0) / 4.0


def test_denoiser_recovers_signal():
    data_key, noise_key = jax.random.split(jax.random.PRNGKey(0))
    clean = jax.random.normal(data_key, (64,))
    noisy = clean + 0.01 * jax.random.normal(noise_key, (64,))
    np.testing.assert_allclose(denoise(noisy), clean, atol=0.2)
    np.testing.assert_array_equal(jax.random.normal(data_key, (64,)), clean)


if __name__ == "__main__":
    test_denoiser_recovers_signal()
    print("ok")
