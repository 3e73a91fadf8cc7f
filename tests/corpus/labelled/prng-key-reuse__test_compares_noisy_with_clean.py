"""A unit test that compares a denoised signal with the clean one, its noise drawn from the signal's key.

`noisy = clean + 0.01 * normal(key)` with the key that drew `clean`: the "noise" is the signal
itself, so the test checks nothing about noise. The comparison is of the result with `clean`,
not a reproduction of the second draw.
"""
import jax
import numpy as np


def denoise(x):
    return jax.numpy.round(x * 4.0) / 4.0


def test_denoiser_recovers_signal():
    key = jax.random.PRNGKey(0)
    clean = jax.random.normal(key, (64,))
    noisy = clean + 0.01 * jax.random.normal(key, (64,))  # expect: prng-key-reuse
    np.testing.assert_allclose(denoise(noisy), clean, atol=0.2)
    return clean, noisy


if __name__ == "__main__":
    clean, noisy = test_denoiser_recovers_signal()
    if np.allclose(noisy, 1.01 * clean):
        print("SHARP BIT: the noise equals the signal: noisy == 1.01 * clean")
