"""A regression sweep in the blackjax style: for each seed, draws of growing sample size from one key (nested
common random numbers on purpose); each setting's values are asserted on and dropped before the next draw.
"""
import jax
import jax.numpy as jnp


def estimate_scale(draws):
    return jnp.sqrt(jnp.mean(draws**2))


def test_scale_estimate_is_finite():
    for seed in range(3):
        key = jax.random.key(seed)
        for n in (10, 20, 40):
            draws = jax.random.normal(key, (n,))
            scale = estimate_scale(draws)
            assert bool(jnp.isfinite(scale)), (seed, n)


if __name__ == "__main__":
    test_scale_estimate_is_finite()
    print("passed")
