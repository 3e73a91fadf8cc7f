"""The bug twin of clean__same_key_runs_compared_by_ratio_and_list.py: the two runs from one key are combined
(their ratio is used as a signal), not compared, so the "independent" second run is the first one rescaled: the
ratio is the constant 2/3 everywhere.
"""
import jax
import jax.numpy as jnp


def run(key, scale, n):
    if n < 1:
        raise ValueError("n >= 1")
    return scale * jax.random.normal(key, (n,))


def signal(key):
    a = run(key, 2.0, 4)
    b = run(key, 3.0, 4)  # expect: prng-key-reuse
    ratio = a / b
    return jnp.mean(ratio)


if __name__ == "__main__":
    print("mean ratio (2/3 everywhere means the same draws):", signal(jax.random.PRNGKey(3)))
