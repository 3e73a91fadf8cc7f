"""smolgp 0.1 tests/test_sample.py: a test sweeps over kernels and hands the one key to a check helper for each
kernel. The helper draws samples from the key, compares their empirical covariance with the kernel's own, and
returns nothing: whatever it drew dies inside the call, so no computation sees the draws of two settings. Each
setting is checked against the same noise, which is how a sweep keeps its settings comparable.
"""
import jax
import jax.numpy as jnp


def _check_moments(scale, key, m=20_000, rtol=0.05):
    samples = scale * jax.random.normal(key, (m,))
    var = float(jnp.var(samples))
    assert abs(var - scale**2) < rtol * scale**2, f"variance {var} for scale {scale}"
    print(f"scale {scale}: variance {var:.3f}")


def test_sweep():
    key = jax.random.PRNGKey(0)
    for scale in (0.5, 1.0, 2.0):
        _check_moments(scale, key)


if __name__ == "__main__":
    test_sweep()
