"""The bug twin of `clean__sweep_of_a_check_with_one_key.py`: the helper returns its draws and the sweep keeps
them together (and a second loop repeats one setting), so the "independent" runs are the same noise scaled:
the samples of every setting are perfectly correlated (checked below).
"""
import jax
import jax.numpy as jnp


def _draw(scale, key, m=1000):
    samples = scale * jax.random.normal(key, (m,))
    assert samples.shape == (m,)
    return samples


def _check_moments(scale, key, m=20_000):
    samples = scale * jax.random.normal(key, (m,))
    assert float(jnp.var(samples)) > 0


def sweep():
    key = jax.random.PRNGKey(0)
    runs = []
    for scale in (0.5, 1.0, 2.0):
        runs.append(_draw(scale, key))  # expect: prng-key-reuse
    for _ in range(3):
        _check_moments(1.0, key)  # expect: prng-key-reuse
    return jnp.stack(runs)


if __name__ == "__main__":
    runs = sweep()
    corr = float(jnp.corrcoef(runs[0], runs[2])[0, 1])
    print("SHARP BIT: the runs of two settings are correlated:", corr)
